import { readBodyBytes, readJsonBody } from '@drops/auth/adapter';
import type { Context } from 'koa';

/**
 * The JSON body of a request: what a body parser upstream already put on `ctx.request.body`,
 * otherwise the raw body through the core's `readJsonBody` (400 for non-JSON, quoting `example`,
 * or compressed; 413 over `limit`).
 * @internal
 */
export function readKeysBody(ctx: Context, limit: number, example?: string): Promise<unknown> {
  const parsed = (ctx.request as { body?: unknown }).body;
  if (parsed !== undefined) return Promise.resolve(parsed);
  return readJsonBody(ctx.req, {
    limit,
    contentLength: ctx.get('content-length') || undefined,
    contentEncoding: ctx.get('content-encoding') || undefined,
    example,
  });
}

/**
 * The body exactly as sent, for a signature over it: the request stream read here (413 over
 * `limit`, 400 when compressed), or the `ctx.request.rawBody` a body parser (`@koa/bodyparser`)
 * kept. A body parsed without its raw text cannot be checked: that is an error of the app's
 * set-up, thrown as such (a 500), never a 401 that would blame the sender.
 * @internal
 */
export function readRawBody(ctx: Context, limit: number, where: string): Promise<Uint8Array> {
  const request = ctx.request as { body?: unknown; rawBody?: unknown };
  if (typeof request.rawBody === 'string') return Promise.resolve(Buffer.from(request.rawBody, 'utf8'));
  if (request.body !== undefined || ctx.req.readableEnded) {
    return Promise.reject(
      new Error(
        `${where}: the request body was already parsed without its raw text: mount the router before the body parser, GitHub signs the raw bytes`,
      ),
    );
  }
  return readBodyBytes(ctx.req, {
    limit,
    contentLength: ctx.get('content-length') || undefined,
    contentEncoding: ctx.get('content-encoding') || undefined,
  });
}
