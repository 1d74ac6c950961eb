import type { Principal } from '@drops/auth';

/**
 * `c.var` after `requireAuth()`: `c.var.auth` is the authenticated principal. Give it to
 * `new Hono<{ Variables: DropsAuthVariables }>()` when other middleware reads it; a route behind
 * `requireAuth()` has it typed either way.
 *
 * @example
 * ```ts
 * const app = new Hono<{ Variables: DropsAuthVariables }>();
 * app.get('/whoami', auth.requireAuth(), (c) => c.json({ accountId: c.var.auth.accountId }));
 * ```
 */
export interface DropsAuthVariables {
  auth: Principal;
}

/**
 * `c.var` after `optionalAuth()`: `c.var.auth` is the principal, or `null` when the request
 * carried no `Authorization` header at all.
 *
 * @example
 * ```ts
 * app.post('/deploy', auth.optionalAuth(), (c) => c.json({ owner: c.var.auth?.accountId ?? null }));
 * ```
 */
export interface OptionalDropsAuthVariables {
  auth: Principal | null;
}
