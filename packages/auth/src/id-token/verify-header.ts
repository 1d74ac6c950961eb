import { UnauthenticatedError } from '../errors/index.js';

/**
 * Checks a JWS protected header and returns its `kid`: `alg` must be exactly `RS256` (so `none`,
 * `HS256` keyed with the public key and every other algorithm are refused), `kid` must be a
 * non-empty string, and a `crit` header is refused since no extension is understood. `typ` is
 * not checked: providers spell it inconsistently and it carries no security meaning here.
 */
export function verifyHeader(header: Record<string, unknown>): string {
  if (header.alg !== 'RS256') throw new UnauthenticatedError('invalid_token', 'alg is not RS256');
  if ('crit' in header) throw new UnauthenticatedError('invalid_token', 'crit header is not supported');
  const kid = header.kid;
  if (typeof kid !== 'string' || kid.length === 0 || kid.length > 256) {
    throw new UnauthenticatedError('invalid_token', 'kid is missing');
  }
  return kid;
}
