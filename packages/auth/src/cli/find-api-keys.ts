import { keyIdOf, keyPrefixOf } from '../api-key/key-id.js';

/**
 * An API key secret inside arbitrary text: `hp_`, 42 base64url characters, then one of the 16
 * characters the last 4 bits can give, not preceded or followed by another base64url character.
 * Same shape as `API_KEY_PATTERN`, unanchored.
 */
export const API_KEY_IN_TEXT = /(?<![A-Za-z0-9_-])hp_[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048](?![A-Za-z0-9_-])/g;

/** One secret found in a text: where, and what is safe to print about it. Never the secret. */
export interface ApiKeyFinding {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column, in UTF-16 code units. */
  readonly column: number;
  /** The first 10 characters, as shown in key listings. */
  readonly prefix: string;
  /** The key id (SHA-256 of the secret), as used by `DELETE /keys/<id>`. */
  readonly id: string;
}

/** A secret found in a text and what is safe to print about it; only `finding` may be printed. */
export interface LocatedApiKey {
  readonly finding: ApiKeyFinding;
  /** The secret itself: to send to a revocation endpoint, never to print. */
  readonly secret: string;
}

/**
 * Every API key secret in `text`, in order, with where it is. `scan --revoke` and `revoke` need
 * the secret to revoke it by value; the finding is what they print.
 *
 * @example
 * ```ts
 * locateApiKeys('DROPS_API_KEY=hp_…\n'); // [{ finding: { line: 1, column: 15, … }, secret: 'hp_…' }]
 * ```
 */
export function locateApiKeys(text: string): LocatedApiKey[] {
  const located: LocatedApiKey[] = [];
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  for (const match of text.matchAll(API_KEY_IN_TEXT)) {
    for (let i = text.indexOf('\n', scanned); i !== -1 && i < match.index; i = text.indexOf('\n', i + 1)) {
      line++;
      lineStart = i + 1;
    }
    scanned = match.index;
    const secret = match[0];
    located.push({
      finding: { line, column: match.index - lineStart + 1, prefix: keyPrefixOf(secret), id: keyIdOf(secret) },
      secret,
    });
  }
  return located;
}
