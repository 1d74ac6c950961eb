import type { ServerResponse } from 'node:http';

/**
 * Answers `body` as JSON with `status`, as `res.status(status).json(body)` would but without
 * Express's work around it: no ETag (computed by hashing the body; an answer that must not be
 * cached has nothing to revalidate), no content-type parsing or charset rewriting, no
 * freshness check. For hot routes whose answers are `Cache-Control: no-store`; set that (and
 * any other header) before calling. A `HEAD` request gets the headers without the body (Node
 * leaves it out).
 */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(json));
  res.end(json);
}
