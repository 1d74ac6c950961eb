import type { Principal } from '@drops/auth';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Set by `@drops/auth-fastify`: the authenticated principal after `requireAuth()`; the
     * principal or `null` after `optionalAuth()`; `undefined` on a route without a drops hook.
     * Typed as all three, so a route cannot read a principal it was never given: take it with
     * `principalOf(request)`, which fails closed with the uniform 401 when there is none.
     */
    auth?: Principal | null;
  }
}
