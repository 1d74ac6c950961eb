import { DropsAuthError } from '../errors/drops-auth-error.js';

/**
 * The Web `Response` for a drops-auth error: its status, headers and exact body bytes.
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
  return new Response(error.bodyText, { status: error.status, headers: error.headers });
}
