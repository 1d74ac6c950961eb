import type { Principal } from '@drops/auth';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Set by `@drops/auth-fastify`: the authenticated principal after `requireAuth()`; the
     * principal or `null` after `optionalAuth()`. Not set on routes without drops auth: there,
     * `principalOf(request)` fails closed with the uniform 401.
     */
    auth: Principal;
  }
}
