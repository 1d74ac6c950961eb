import type { RouteAnswer } from '../leaked-keys/route-answer.js';
import { canonicalHeaders } from './canonical-headers.js';

/**
 * The Web `Response` of an answer of a drops-auth route, or of a `DropsAuthError` (one too): its
 * status, its headers with a `Content-Length` (so a server writes one fixed-length answer, never
 * chunked) and its exact body bytes; no body for a `HEAD` request or a 204.
 *
 * @example
 * ```ts
 * import { answerResponse } from '@drops/auth/adapter';
 *
 * const answer = await routes.handle(keyRouteRequest);
 * return answerResponse(answer, request.method);
 * ```
 */
export function answerResponse(answer: RouteAnswer, method = 'GET'): Response {
  const empty = answer.status === 204 || answer.status === 304 || method.toUpperCase() === 'HEAD';
  return new Response(empty ? null : answer.bodyText, { status: answer.status, headers: canonicalHeaders(answer) });
}
