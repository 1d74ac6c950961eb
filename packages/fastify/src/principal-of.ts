import { UnauthenticatedError, type Principal } from '@drops/auth';
import type { FastifyRequest } from 'fastify';
import './drops-auth-request.js';

/**
 * The principal `requireAuth()` put on `request.auth`, checked: throws the uniform 401
 * (`UnauthenticatedError`) when there is none, so a route registered without `requireAuth()` by
 * mistake fails closed instead of acting for nobody.
 *
 * @example
 * ```ts
 * app.get('/drops', async (request) => ({ owner: principalOf(request).accountId }));
 * ```
 */
export function principalOf(request: Pick<FastifyRequest, 'auth'>): Principal {
  const principal = (request as { auth?: Principal | null }).auth;
  if (principal === undefined || principal === null) throw new UnauthenticatedError('missing', 'no principal on request.auth');
  return principal;
}
