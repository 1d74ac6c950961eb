import { UnauthenticatedError } from '../errors/index.js';
import { base64UrlDecodeText } from '../platform/runtime-crypto.js';

/** Tokens longer than this are refused before any parsing (a Firebase ID token is ~1 KiB). */
export const MAX_TOKEN_LENGTH = 16 * 1024;

/** A compact JWS split into its three base64url parts, nothing decoded yet. */
export interface CompactJwtParts {
  readonly header: string;
  readonly payload: string;
  readonly signature: string;
  /** `<header>.<payload>`: what the signature covers. */
  readonly signingInput: string;
}

/** Three non-empty base64url parts. A base64 decoder would silently skip other characters; a token has one spelling. */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

function invalid(detail: string): UnauthenticatedError {
  return new UnauthenticatedError('invalid_token', detail);
}

/** The 6-bit value of one base64url character (the caller has checked it is one). */
function sextet(code: number): number {
  if (code >= 97) return code - 71; // a-z: 26..51
  if (code >= 65) return code - 65; // A-Z: 0..25
  if (code >= 48) return code - 48 + 52; // 0-9: 52..61; '_' (95) is caught below
  return 62; // '-'
}

/**
 * Whether a base64url part (alphabet already checked, no padding) is the one spelling its bytes
 * re-encode to. Decoders ignore the unused low bits of the last character, so without this check
 * `...Q` and `...R` decode alike: one token, several spellings, several cache entries. A length of
 * 1 mod 4 encodes no whole byte and is refused too. O(1): only the last character is looked at.
 */
export function isCanonicalBase64url(part: string): boolean {
  const rest = part.length % 4;
  if (rest === 0) return true;
  if (rest === 1) return false;
  const code = part.charCodeAt(part.length - 1);
  const value = code === 95 ? 63 : sextet(code);
  // 2 chars carry 1 byte (4 bits unused), 3 chars carry 2 bytes (2 bits unused).
  return (value & (rest === 2 ? 0x0f : 0x03)) === 0;
}

/**
 * Splits a compact JWS into its three base64url parts. Anything else (wrong part count, empty
 * signature, other characters, a part that is not canonical base64url, more than
 * `MAX_TOKEN_LENGTH`) is refused as `invalid_token` without touching a key.
 */
export function splitCompactJwt(token: unknown): CompactJwtParts {
  if (typeof token !== 'string' || token.length === 0) throw invalid('token is not a string');
  if (token.length > MAX_TOKEN_LENGTH) throw invalid('token is too long');
  if (!COMPACT_JWS.test(token)) throw invalid('token is not three base64url parts');
  const firstDot = token.indexOf('.');
  const secondDot = token.indexOf('.', firstDot + 1);
  const parts = {
    header: token.slice(0, firstDot),
    payload: token.slice(firstDot + 1, secondDot),
    signature: token.slice(secondDot + 1),
    signingInput: token.slice(0, secondDot),
  };
  const canonical = isCanonicalBase64url(parts.header) && isCanonicalBase64url(parts.payload) && isCanonicalBase64url(parts.signature);
  if (!canonical) throw invalid('token is not canonical base64url');
  return parts;
}

/**
 * Decodes one base64url part holding a JSON object; anything else is `invalid_token`: bytes that
 * are not UTF-8 (never replaced with U+FFFD), a leading byte-order mark (RFC 8259 section 8.1),
 * text that is not JSON, JSON that is not an object. The same verdict in both builds.
 */
export function decodeJsonPart(part: string, what: 'header' | 'payload'): Record<string, unknown> {
  let text: string;
  try {
    text = base64UrlDecodeText(part);
  } catch {
    throw invalid(`${what} is not UTF-8`);
  }
  if (text.charCodeAt(0) === 0xfeff) throw invalid(`${what} starts with a byte-order mark`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid(`${what} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`${what} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}
