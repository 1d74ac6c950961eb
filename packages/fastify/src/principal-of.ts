import { UnauthenticatedError, type Principal } from '@drops/auth';
import type { FastifyRequest } from 'fastify';
import './drops-auth-request.js';

/**
 * The principal `requireAuth()` put on `request.auth`, checked: throws the uniform 401
 * (`UnauthenticatedError`) when there is none, so a route registered without `requireAuth()` by
 * mistake fails closed instead of acting for nobody: with `app.setErrorHandler(auth.errorHandler)`,
 * as the hook's own 401 bytes.
 *
 * @example
 * ```ts
 * app.get('/drops', async (request) => ({ owner: principalOf(request).accountId }));
 * ```
 */
export function principalOf(request: Pick<FastifyRequest, 'auth'>): Principal {
  const principal = request.auth;
  if (principal === undefined || principal === null) throw new UnauthenticatedError('missing', 'no principal on request.auth');
  return principal;
}
