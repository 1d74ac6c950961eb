import { InvalidRequestError } from '@drops/auth';
import type { Context } from 'koa';
import { DEFAULT_KEYS_BODY_LIMIT, PayloadTooLargeError } from './payload-too-large-error.js';

/**
 * The JSON body of a request: what a body parser upstream already put on `ctx.request.body`,
 * otherwise the raw body read here. Resolves `undefined` for an empty body; a body that is not
 * JSON is a 400, a body over the limit a 413.
 * @internal
 */
export async function readJsonBody(ctx: Context, limit = DEFAULT_KEYS_BODY_LIMIT): Promise<unknown> {
  const parsed = (ctx.request as { body?: unknown }).body;
  if (parsed !== undefined) return parsed;
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limit) throw new PayloadTooLargeError(`request body must be at most ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new PayloadTooLargeError(`request body must be at most ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InvalidRequestError('request body must be JSON, e.g. {"name": "ci-main"}');
  }
}
