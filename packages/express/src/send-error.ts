import type { DropsAuthError } from '@drops/auth';
import type { Response } from 'express';

/**
 * Writes a drops-auth error as its exact HTTP answer: the error's status, its headers and its
 * `bodyText` bytes, nothing added by Express (no ETag, no charset rewriting). This is what makes
 * the 401 the same bytes on every route.
 *
 * @example
 * ```ts
 * try {
 *   req.auth = await authenticator.authenticate(req.headers);
 * } catch (err) {
 *   if (err instanceof DropsAuthError) return sendError(res, err);
 *   throw err;
 * }
 * ```
 */
export function sendError(res: Response, error: DropsAuthError): void {
  const body = Buffer.from(error.bodyText, 'utf8');
  res.status(error.status);
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.setHeader('content-length', String(body.length));
  res.end(body);
}
