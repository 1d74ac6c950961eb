import type { DropsAuthError } from '../errors/drops-auth-error.js';
import type { RouteAnswer } from '../leaked-keys/route-answer.js';

/**
 * The Web `Response` for a route's answer (or error): its status, headers and exact body bytes,
 * with a `Content-Length`, so a server writes it as one fixed-length answer (never chunked).
 * @internal
 */
export function answerResponse(answer: RouteAnswer): Response {
  const body = new TextEncoder().encode(answer.bodyText);
  const headers = new Headers(answer.headers);
  headers.set('content-length', String(body.byteLength));
  return new Response(body, { status: answer.status, headers });
}

/**
 * The Web `Response` for a drops-auth error: its status, headers and exact body bytes, with a
 * `Content-Length` so a server writes it as one fixed-length answer (never chunked), the same
 * bytes every time.
 *
 * @example
 * ```ts
 * catch (err) {
 *   if (err instanceof DropsAuthError) return errorResponse(err);
 *   throw err;
 * }
 * ```
 */
export function errorResponse(error: DropsAuthError): Response {
  return answerResponse(error);
}
