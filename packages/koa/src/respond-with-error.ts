import type { DropsAuthError, Principal } from '@drops/auth';
import { canonicalHeaders, type RouteAnswer } from '@drops/auth/adapter';
import type { Context } from 'koa';

/**
 * Writes a drops-auth error to a Koa response: the error's own status, headers and body bytes.
 * This is how every response of this package fails, so the 401 is byte-identical to the one
 * every other adapter sends.
 *
 * The error's headers and `Content-Length` go out in the canonical order (sorted by name), after
 * any header set earlier on the response (an earlier copy is removed first: Node keeps a header
 * where it was first set), so no route can answer its 401 in another order. After authentication
 * (`ctx.state.auth` set) an API key expiring within 7 days is warned with `Drops-Key-Expiration`,
 * as on every other answer to it.
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
  respondWithAnswer(ctx, error, ctx.state['auth'] as Principal | null | undefined);
}

/**
 * Writes a route's answer (a `DropsAuthError` is one) as its exact bytes, with the expiry warning
 * for `principal` (the kit's `canonicalHeaders`); see {@link respondWithError}.
 * @internal
 */
export function respondWithAnswer(ctx: Context, answer: RouteAnswer, principal?: Principal | null): void {
  const headers = canonicalHeaders(answer, principal);
  for (const [name] of headers) ctx.remove(name);
  ctx.status = answer.status;
  for (const [name, value] of headers) ctx.set(name, value);
  // A string body keeps the exact bytes; Koa keeps the content-type set above and rewrites
  // content-length with the same value, in place. A 204 carries none.
  if (answer.status !== 204) ctx.body = answer.bodyText;
}
