import { UnauthenticatedError, type Principal } from '@drops/auth';
import type { Context } from 'koa';
import './drops-auth-state.js';

/**
 * The principal `requireAuth()` put on `ctx.state.auth`, typed as a `Principal`, for middleware
 * whose `ctx.state` type does not say so (e.g. mounted with `app.use`). Throws the uniform 401
 * (`UnauthenticatedError`) when there is none, so a route mounted without `requireAuth()` by
 * mistake fails closed instead of acting for nobody.
 *
 * @example
 * ```ts
 * app.use(auth.requireAuth());
 * app.use((ctx) => {
 *   ctx.body = { owner: principalOf(ctx).accountId };
 * });
 * ```
 */
export function principalOf(ctx: Pick<Context, 'state'>): Principal {
  const principal = (ctx.state as { auth?: Principal | null }).auth;
  if (principal === undefined || principal === null) throw new UnauthenticatedError('missing', 'no principal on ctx.state');
  return principal;
}
