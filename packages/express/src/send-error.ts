import type { DropsAuthError } from '@drops/auth';
import type { RouteAnswer } from '@drops/auth/internal';
import type { Response } from 'express';

/**
 * Writes a drops-auth error as its exact HTTP answer: the error's status, its headers and its
 * `bodyText` bytes, nothing added by Express (no ETag, no charset rewriting). This is what makes
 * the 401 the same bytes on every route.
 *
 * The error's headers and `Content-Length` are (re)written in one order, sorted by name, after
 * any header a route set earlier: Node keeps a header where it was first set, so a route that
 * had set `Cache-Control` before failing would otherwise send its 401 in another order.
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
  sendAnswer(res, error);
}

/**
 * Writes a route's answer (a `DropsAuthError` is one) as its exact bytes; see {@link sendError}.
 * @internal
 */
export function sendAnswer(res: Response, answer: RouteAnswer): void {
  const body = Buffer.from(answer.bodyText, 'utf8');
  const headers: Array<[string, string]> = Object.entries(answer.headers).map(([name, value]) => [name.toLowerCase(), value]);
  headers.push(['content-length', String(body.length)]);
  headers.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [name] of headers) res.removeHeader(name);
  res.status(answer.status);
  for (const [name, value] of headers) res.setHeader(name, value);
  res.end(body);
}
