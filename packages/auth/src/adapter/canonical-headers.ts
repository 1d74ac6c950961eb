import type { Principal } from '../authenticator/principal.js';
import type { UnauthenticatedAnswer } from '../errors/unauthenticated-answer.js';
import { plainUnauthenticatedAnswerOf } from '../errors/unauthenticated-error.js';
import type { RouteAnswer } from '../leaked-keys/route-answer.js';
import { KEY_EXPIRATION_HEADER, keyExpirationHeader } from './key-expiration-header.js';

const encoder = new TextEncoder();

/** Statuses that carry no body, hence no `Content-Length` (RFC 9110, 8.6). */
const NO_BODY = new Set([204, 304]);

/**
 * The header lines of an answer in the one order every adapter sends: its own headers, its
 * `Content-Length` and, for a request authenticated by an API key that expires within 7 days,
 * `Drops-Key-Expiration` ({@link keyExpirationHeader}), names in lower case, sorted by name. Written
 * in this order (after removing any copy a route set earlier: Node keeps a header where it was
 * first set), the uniform 401 is the same bytes on every route of every adapter.
 *
 * The one place the expiry warning joins a drops-auth answer: every answer writer of the kit
 * ({@link writeNodeAnswer}, {@link answerResponse}) passes the request's principal here, so a
 * success and an error after authentication (400, 404, 405, 413, 503) carry it alike.
 *
 * @param answer - the route's answer, or a `DropsAuthError`.
 * @param principal - who made the request, once authenticated; omitted (or `null`) before, or
 *   for an anonymous request: then no warning.
 *
 * @example
 * ```ts
 * import { canonicalHeaders } from '@drops/auth/adapter';
 * import { UnauthenticatedError } from '@drops/auth';
 *
 * canonicalHeaders(new UnauthenticatedError('missing'));
 * // [['cache-control', 'no-store'], ['content-length', '69'], ['content-type', 'application/json; charset=utf-8'], ['www-authenticate', 'Bearer realm="drops"']]
 * ```
 */
export function canonicalHeaders(answer: RouteAnswer, principal?: Principal | null): Array<[name: string, value: string]> {
  // The uniform 401 before authentication: the same lines for every request, worked out once per
  // realm and message (a flood of unknown keys is answered with nothing else; bench/METHOD.md).
  const uniform = principal == null ? plainUnauthenticatedAnswerOf(answer) : undefined;
  if (uniform !== undefined) {
    let lines = UNIFORM_401_LINES.get(uniform);
    if (lines === undefined) {
      lines = linesOf(answer, null);
      UNIFORM_401_LINES.set(uniform, lines);
    }
    return lines.map(([name, value]) => [name, value]);
  }
  return linesOf(answer, principal);
}

/** The canonical lines of each uniform 401 (one per authenticator's realm and message). */
const UNIFORM_401_LINES = new WeakMap<UnauthenticatedAnswer, ReadonlyArray<readonly [string, string]>>();

function linesOf(answer: RouteAnswer, principal: Principal | null | undefined): Array<[name: string, value: string]> {
  const headers: Array<[string, string]> = Object.entries(answer.headers).map(([name, value]) => [name.toLowerCase(), value]);
  if (!NO_BODY.has(answer.status)) headers.push(['content-length', String(encoder.encode(answer.bodyText).byteLength)]);
  const expiration = keyExpirationHeader(principal);
  if (expiration !== null) headers.push([KEY_EXPIRATION_HEADER, expiration]);
  return headers.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
