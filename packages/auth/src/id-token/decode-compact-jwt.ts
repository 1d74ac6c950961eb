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

/**
 * Splits a compact JWS into its three base64url parts. Anything else (wrong part count, empty
 * signature, other characters, more than `MAX_TOKEN_LENGTH`) is refused as `invalid_token`
 * without touching a key.
 */
export function splitCompactJwt(token: unknown): CompactJwtParts {
  if (typeof token !== 'string' || token.length === 0) throw invalid('token is not a string');
  if (token.length > MAX_TOKEN_LENGTH) throw invalid('token is too long');
  if (!COMPACT_JWS.test(token)) throw invalid('token is not three base64url parts');
  const firstDot = token.indexOf('.');
  const secondDot = token.indexOf('.', firstDot + 1);
  return {
    header: token.slice(0, firstDot),
    payload: token.slice(firstDot + 1, secondDot),
    signature: token.slice(secondDot + 1),
    signingInput: token.slice(0, secondDot),
  };
}

/** Decodes one base64url part holding a JSON object; anything else is `invalid_token`. */
export function decodeJsonPart(part: string, what: 'header' | 'payload'): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(base64UrlDecodeText(part));
  } catch {
    throw invalid(`${what} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`${what} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}
