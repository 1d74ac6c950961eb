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

/**
 * Every API key secret in `text`, in order.
 *
 * @example
 * ```ts
 * findApiKeys('DROPS_API_KEY=hp_…\n'); // [{ line: 1, column: 15, prefix: 'hp_…', id: '…' }]
 * ```
 */
export function findApiKeys(text: string): ApiKeyFinding[] {
  const findings: ApiKeyFinding[] = [];
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
    findings.push({ line, column: match.index - lineStart + 1, prefix: keyPrefixOf(secret), id: keyIdOf(secret) });
  }
  return findings;
}
