import type { RequestInfo } from '@drops/auth';
import { requestInfoOfNodeRequest } from '@drops/auth/adapter';
import type { Context } from 'koa';

/**
 * What a Koa request shows of the client, for key events: `ctx.ip` (which follows the app's
 * `proxy` setting) and the `User-Agent` header. Called when an event is written, never on the
 * hot path of a check.
 * @internal
 */
export function requestInfoOf(ctx: Context): RequestInfo {
  return requestInfoOfNodeRequest(ctx.req, ctx.ip || null);
}
