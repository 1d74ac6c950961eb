import { readJsonBody } from '@drops/auth/internal';
import type { Context } from 'koa';

/**
 * The JSON body of a `/keys` request: what a body parser upstream already put on
 * `ctx.request.body`, otherwise the raw body through the core's `readJsonBody` (400 for non-JSON
 * or compressed, 413 over `limit`).
 * @internal
 */
export function readKeysBody(ctx: Context, limit: number): Promise<unknown> {
  const parsed = (ctx.request as { body?: unknown }).body;
  if (parsed !== undefined) return Promise.resolve(parsed);
  return readJsonBody(ctx.req, {
    limit,
    contentLength: ctx.get('content-length') || undefined,
    contentEncoding: ctx.get('content-encoding') || undefined,
  });
}
