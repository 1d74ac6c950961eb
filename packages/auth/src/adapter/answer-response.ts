import type { Principal } from '../authenticator/principal.js';
import type { RouteAnswer } from '../leaked-keys/route-answer.js';
import { canonicalHeaders } from './canonical-headers.js';

/**
 * The Web `Response` of an answer of a drops-auth route, or of a `DropsAuthError` (one too): its
 * status, its headers with a `Content-Length` (so a server writes one fixed-length answer, never
 * chunked) and its exact body bytes; no body for a `HEAD` request or a 204. Given the request's
 * principal once it is authenticated, an answer to an API key expiring within 7 days carries
 * `Drops-Key-Expiration` (see {@link canonicalHeaders}), a success and an error alike.
 *
 * @param answer - the route's answer, or a `DropsAuthError`.
 * @param method - the request's method. Default `'GET'`.
 * @param principal - who made the request; omit it (or `null`) before authentication.
 *
 * @example
 * ```ts
 * import { answerResponse } from '@drops/auth/adapter';
 * import { DropsAuthError, type Principal } from '@drops/auth';
 *
 * let principal: Principal | undefined;
 * try {
 *   const answer = await routes.handle({ ...keyRouteRequest, authenticated: (p) => (principal = p) });
 *   return answerResponse(answer, request.method, principal);
 * } catch (error) {
 *   if (error instanceof DropsAuthError) return answerResponse(error, request.method, principal);
 *   throw error;
 * }
 * ```
 */
export function answerResponse(answer: RouteAnswer, method = 'GET', principal?: Principal | null): Response {
  const empty = answer.status === 204 || answer.status === 304 || method.toUpperCase() === 'HEAD';
  return new Response(empty ? null : answer.bodyText, { status: answer.status, headers: canonicalHeaders(answer, principal) });
}
