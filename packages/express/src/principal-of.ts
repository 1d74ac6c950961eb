import { UnauthenticatedError, type Principal } from '@drops/auth';
import type { Request } from 'express';

/**
 * The principal `requireAuth()` put on the request. Throws the uniform 401
 * (`UnauthenticatedError`) when there is none, so a route mounted without `requireAuth()` by
 * mistake fails closed instead of acting for nobody.
 *
 * @example
 * ```ts
 * app.get('/whoami', auth.requireAuth(), (req, res) => {
 *   const { accountId } = principalOf(req);
 *   res.json({ accountId });
 * });
 * ```
 */
export function principalOf(req: Request): Principal {
  const principal = req.auth;
  if (principal === undefined || principal === null) throw new UnauthenticatedError('missing', 'no principal on the request');
  return principal;
}
