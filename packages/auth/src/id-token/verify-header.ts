import { UnauthenticatedError } from '../errors/index.js';
import type { JwsAlgorithm } from './jws-algorithms.js';

/** What a protected header names, once found acceptable. */
export interface AcceptedHeader {
  readonly kid: string;
  readonly alg: JwsAlgorithm;
}

/** What the header is checked against. */
export interface HeaderExpectations {
  /** The algorithms allowed (default `['RS256']`): `none`, HS256 and any other one are refused. */
  readonly algorithms: readonly JwsAlgorithm[];
  /** The `typ` required, compared as RFC 8725 3.11 says (`application/` optional, any case); `undefined` leaves it unchecked. */
  readonly typ: string | undefined;
}

/** A media type as compared: lower case, without the `application/` prefix JWS lets one omit (RFC 7515 4.1.9). */
function mediaType(value: string): string {
  const lower = value.toLowerCase();
  return lower.startsWith('application/') ? lower.slice('application/'.length) : lower;
}

/**
 * Checks a JWS protected header and returns its `kid` and `alg`: `alg` must be one of the
 * allowed algorithms (so `none`, `HS256` keyed with the public key and every algorithm not allowed
 * are refused), `kid` must be a non-empty string, and a `crit` header is refused since no
 * extension is understood. `typ` is checked only when one is required (`'at+jwt'` for RFC 9068
 * access tokens): ID token providers spell it inconsistently and it carries no security meaning
 * there.
 */
export function verifyHeader(header: Record<string, unknown>, expected: HeaderExpectations): AcceptedHeader {
  const alg = header.alg as JwsAlgorithm;
  if (!expected.algorithms.includes(alg)) throw new UnauthenticatedError('invalid_token', 'alg is not allowed');
  if ('crit' in header) throw new UnauthenticatedError('invalid_token', 'crit header is not supported');
  const kid = header.kid;
  if (typeof kid !== 'string' || kid.length === 0 || kid.length > 256) {
    throw new UnauthenticatedError('invalid_token', 'kid is missing');
  }
  if (expected.typ !== undefined && (typeof header.typ !== 'string' || mediaType(header.typ) !== mediaType(expected.typ))) {
    throw new UnauthenticatedError('invalid_token', 'typ is not the one required');
  }
  return { kid, alg };
}
