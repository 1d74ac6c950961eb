import { UnauthenticatedError } from '../errors/index.js';
import type { IdTokenClaims } from './id-token-claims.js';

/** The longest lifetime (`exp - iat`) an ID token may claim by default (`maxLifetimeSeconds`): one hour. */
export const MAX_TOKEN_LIFETIME_SECONDS = 3600;

/** What the claims are checked against. */
export interface ClaimExpectations {
  readonly issuer: string;
  readonly audiences: readonly string[];
  readonly clockToleranceSeconds: number;
  /** The longest `exp - iat` accepted, in seconds. */
  readonly maxLifetimeSeconds: number;
}

function invalid(detail: string): UnauthenticatedError {
  return new UnauthenticatedError('invalid_token', detail);
}

function isNumericDate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * Checks the claims that do not depend on the time: `iss` equals, `aud` names an expected
 * audience, `sub` is a string of 1 to 128 characters, `exp` and `iat` are numbers at most
 * `maxLifetimeSeconds` apart (an hour by default), and `auth_time`/`nbf` are numbers when present.
 */
export function verifyStaticClaims(payload: Record<string, unknown>, expected: ClaimExpectations): IdTokenClaims {
  if (payload.iss !== expected.issuer) throw invalid('iss does not match');
  const aud = payload.aud;
  const audOk =
    typeof aud === 'string'
      ? expected.audiences.includes(aud)
      : Array.isArray(aud) && aud.some((a) => typeof a === 'string' && expected.audiences.includes(a));
  if (!audOk) throw invalid('aud does not match');
  const sub = payload.sub;
  if (typeof sub !== 'string' || sub.length === 0 || sub.length > 128) {
    throw invalid('sub is not a string of 1 to 128 characters');
  }
  if (!isNumericDate(payload.exp)) throw invalid('exp is missing or not a number');
  if (!isNumericDate(payload.iat)) throw invalid('iat is missing or not a number');
  if (payload.exp - payload.iat > expected.maxLifetimeSeconds) throw invalid('lifetime exceeds maxLifetimeSeconds');
  if (payload.auth_time !== undefined && !isNumericDate(payload.auth_time)) {
    throw invalid('auth_time is not a number');
  }
  if (payload.nbf !== undefined && !isNumericDate(payload.nbf)) throw invalid('nbf is not a number');
  return payload as unknown as IdTokenClaims;
}

/**
 * Checks the claims that depend on the time, with the tolerance: `exp` in the future (else
 * `expired_token`), `iat`, `auth_time` in the past and `nbf` reached. Cheap, so the repeat-token
 * cache runs it on every hit.
 */
export function verifyTimeClaims(claims: IdTokenClaims, nowMs: number, clockToleranceSeconds: number): void {
  const now = nowMs / 1000;
  const tolerance = clockToleranceSeconds;
  if (now - tolerance >= claims.exp) {
    throw new UnauthenticatedError('expired_token', 'exp has passed');
  }
  if (claims.iat > now + tolerance) throw invalid('iat is in the future');
  if (claims.auth_time !== undefined && claims.auth_time > now + tolerance) {
    throw invalid('auth_time is in the future');
  }
  if (claims.nbf !== undefined && claims.nbf > now + tolerance) throw invalid('nbf is not reached');
}
