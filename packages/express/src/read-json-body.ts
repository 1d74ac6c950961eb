import { PayloadTooLargeError } from '@drops/auth';
import { parseJsonText, readBodyBytes, readJsonBody } from '@drops/auth/adapter';
import type { Request } from 'express';

/**
 * The optional JSON body of a request: what a body parser upstream (`express.json()`,
 * `express.text()`, `express.raw()`) already read, otherwise the raw stream through the core's
 * `readJsonBody` (400 for non-JSON, quoting `example`, or compressed; 413 over `limit`).
 * @internal
 */
export function readKeysBody(req: Request, limit: number, example?: string): Promise<unknown> {
  // body-parser marks a body it read with `_body`; Express 4 also leaves `req.body = {}` when no
  // parser matched the type, and then the stream is still there to read.
  const parsed = (req as { _body?: unknown })._body === true;
  if (parsed || req.readableEnded) return Promise.resolve().then(() => fromParsed(req.body, example));
  return readJsonBody(req, {
    limit,
    contentLength: req.headers['content-length'],
    contentEncoding: req.headers['content-encoding'],
    example,
  });
}

function fromParsed(body: unknown, example: string | undefined): unknown {
  if (Buffer.isBuffer(body)) return parseJsonText(body.toString('utf8'), example);
  if (typeof body === 'string') return parseJsonText(body, example);
  // express.json() leaves `{}` for an empty body; treat it as no body.
  if (body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) return undefined;
  return body;
}

/**
 * The body exactly as sent, for a signature over it: the request stream read here (413 over
 * `limit`, 400 when compressed), or what `express.raw()` / `express.text()` kept. A body another
 * parser (`express.json()`) has already turned into an object cannot be checked: that is an
 * error of the app's set-up, thrown as such (a 500), never a 401 that would blame the sender.
 * @internal
 */
export async function readRawBody(req: Request, limit: number, where: string): Promise<Uint8Array> {
  const body: unknown = req.body;
  const kept = Buffer.isBuffer(body) ? body : typeof body === 'string' ? Buffer.from(body, 'utf8') : undefined;
  if (kept !== undefined) {
    if (kept.byteLength > limit) throw new PayloadTooLargeError(`the request body must be at most ${limit} bytes`);
    return kept;
  }
  if (req.readableEnded) {
    throw new Error(
      `${where}: the request body was already parsed (express.json()?): mount the router before any body parser, GitHub signs the raw bytes`,
    );
  }
  return readBodyBytes(req, { limit, contentLength: req.headers['content-length'], contentEncoding: req.headers['content-encoding'] });
}
