import { parseJsonText, readJsonBody } from '@drops/auth/internal';
import type { Request } from 'express';

/**
 * The optional JSON body of a `/keys` request: what a body parser upstream (`express.json()`,
 * `express.text()`, `express.raw()`) already read, otherwise the raw stream through the core's
 * `readJsonBody` (400 for non-JSON or compressed, 413 over `limit`).
 * @internal
 */
export function readKeysBody(req: Request, limit: number): Promise<unknown> {
  if (req.body !== undefined || req.readableEnded) return Promise.resolve().then(() => fromParsed(req.body));
  return readJsonBody(req, {
    limit,
    contentLength: req.headers['content-length'],
    contentEncoding: req.headers['content-encoding'],
  });
}

function fromParsed(body: unknown): unknown {
  if (Buffer.isBuffer(body)) return parseJsonText(body.toString('utf8'));
  if (typeof body === 'string') return parseJsonText(body);
  // express.json() leaves `{}` for an empty body; treat it as no body.
  if (body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) return undefined;
  return body;
}
