import type { DropsAuthError } from '@drops/auth';
import { writeNodeAnswer } from '@drops/auth/adapter';
import type { Response } from 'express';

/**
 * Writes a drops-auth error as its exact HTTP answer: the error's status, its headers in the
 * canonical order (sorted by name, with `Content-Length`, after removing any copy a route set
 * earlier) and its `bodyText` bytes, nothing added by Express (no ETag, no charset rewriting).
 * This is what makes the 401 the same bytes on every route, and in every adapter.
 *
 * @example
 * ```ts
 * try {
 *   await keys.revoke(principalOf(req), req.params.id);
 * } catch (err) {
 *   if (err instanceof DropsAuthError) return respondWithError(res, err);
 *   throw err;
 * }
 * ```
 */
export function respondWithError(res: Response, error: DropsAuthError): void {
  writeNodeAnswer(res, error);
}
