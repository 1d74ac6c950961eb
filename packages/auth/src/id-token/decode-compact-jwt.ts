import { UnauthenticatedError } from '../errors/index.js';

/** Tokens longer than this are refused before any parsing (a Firebase ID token is ~1 KiB). */
export const MAX_TOKEN_LENGTH = 16 * 1024;

/** A compact JWS split and decoded, not yet verified. */
export interface DecodedCompactJwt {
  readonly header: Record<string, unknown>;
  readonly payload: Record<string, unknown>;
  /** `<header>.<payload>` as bytes: what the signature covers. */
  readonly signingInput: Buffer;
  readonly signature: Buffer;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function invalid(detail: string): UnauthenticatedError {
  return new UnauthenticatedError('invalid_token', detail);
}

function decodeJsonObject(segment: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    throw invalid(`${what} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`${what} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

/**
 * Splits a compact JWS into its three base64url parts and decodes header and payload. Anything
 * malformed (wrong part count, non-base64url characters, bad JSON, oversized) is refused as
 * `invalid_token` without touching a key.
 */
export function decodeCompactJwt(token: unknown): DecodedCompactJwt {
  if (typeof token !== 'string' || token.length === 0) throw invalid('token is not a string');
  if (token.length > MAX_TOKEN_LENGTH) throw invalid('token is too long');
  const firstDot = token.indexOf('.');
  const secondDot = token.indexOf('.', firstDot + 1);
  if (firstDot <= 0 || secondDot <= firstDot + 1 || token.indexOf('.', secondDot + 1) !== -1) {
    throw invalid('token is not three dot-separated parts');
  }
  const headerPart = token.slice(0, firstDot);
  const payloadPart = token.slice(firstDot + 1, secondDot);
  const signaturePart = token.slice(secondDot + 1);
  if (signaturePart.length === 0) throw invalid('token has no signature');
  // Buffer's base64url decoder skips characters it does not know; refuse them instead, so one
  // token has one spelling (a repeat cache keyed by the string must not see aliases).
  if (!BASE64URL.test(headerPart) || !BASE64URL.test(payloadPart) || !BASE64URL.test(signaturePart)) {
    throw invalid('token is not base64url');
  }
  const header = decodeJsonObject(headerPart, 'header');
  const payload = decodeJsonObject(payloadPart, 'payload');
  return {
    header,
    payload,
    signingInput: Buffer.from(token.slice(0, secondDot), 'latin1'),
    signature: Buffer.from(signaturePart, 'base64url'),
  };
}
