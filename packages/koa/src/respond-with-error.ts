import type { DropsAuthError } from '@drops/auth';
import type { Context } from 'koa';

/**
 * Writes a drops-auth error to a Koa response: the error's own status, headers and body bytes.
 * This is how every response of this package fails, so the 401 is byte-identical to the one the
 * core's Web adapter and the Express adapter send.
 *
 * @example
 * ```ts
 * try {
 *   await keys.revoke(ctx.state.auth, id);
 * } catch (error) {
 *   if (error instanceof DropsAuthError) return respondWithError(ctx, error);
 *   throw error;
 * }
 * ```
 */
export function respondWithError(ctx: Context, error: DropsAuthError): void {
  ctx.status = error.status;
  ctx.set(error.headers);
  // A string body keeps the exact bytes; the content-type set above is kept by Koa.
  ctx.body = error.bodyText;
}
