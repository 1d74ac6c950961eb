import type { Principal } from '@drops/auth';

/**
 * `ctx.state` after `requireAuth()`: `ctx.state.auth` is the authenticated principal.
 *
 * @example
 * ```ts
 * router.get('/drops', auth.requireAuth(), (ctx) => {
 *   ctx.body = { owner: ctx.state.auth.accountId };
 * });
 * ```
 */
export interface DropsAuthState {
  auth: Principal;
}

/**
 * `ctx.state` after `optionalAuth()`: `ctx.state.auth` is the principal, or `null` when the
 * request carried no `Authorization` header at all.
 *
 * @example
 * ```ts
 * router.post('/deploy', auth.optionalAuth(), (ctx) => {
 *   ctx.body = { owner: ctx.state.auth?.accountId ?? null };
 * });
 * ```
 */
export interface OptionalDropsAuthState {
  auth: Principal | null;
}

declare module 'koa' {
  interface DefaultState {
    /**
     * Set by `@drops/auth-koa`: the principal after `requireAuth()`, the principal or `null`
     * after `optionalAuth()`, `undefined` on routes without drops auth.
     */
    auth?: Principal | null;
  }
}
