import { answerResponse } from '../adapter/answer-response.js';
import type { DropsAuthError } from '../errors/drops-auth-error.js';

/**
 * The Web `Response` for a drops-auth error: its status, headers and exact body bytes, with a
 * `Content-Length` so a server writes it as one fixed-length answer (never chunked), the same
 * bytes every time.
 *
 * @example
 * ```ts
 * catch (err) {
 *   if (err instanceof DropsAuthError) return respondWithError(err);
 *   throw err;
 * }
 * ```
 */
export function respondWithError(error: DropsAuthError): Response {
  return answerResponse(error);
}
