import { authorizationOfNodeRequest, parseAccept, type Authenticator, type CredentialType } from '@drops/auth';
import type { RequestHandler } from 'express';
import './request-auth.js';

/** Options of `requireAuth()` and `optionalAuth()`. */
export interface AuthMiddlewareOptions {
  /**
   * The credential types the route accepts: `['api_key']`, `['id_token']` or both.
   * Default: both. A credential of another type is the uniform 401.
   */
  accept?: readonly CredentialType[];
}

function checkAuthenticator(authenticator: Authenticator, name: string): void {
  if (
    authenticator === null ||
    typeof authenticator !== 'object' ||
    typeof authenticator.authenticate !== 'function' ||
    typeof authenticator.authenticateOptional !== 'function'
  ) {
    throw new TypeError(`${name}: authenticator must come from createAuthenticator()`);
  }
}

function acceptOf(options: AuthMiddlewareOptions | undefined, name: string): readonly CredentialType[] {
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw new TypeError(`${name}: options must be an object`);
  }
  try {
    return parseAccept(options?.accept);
  } catch (error) {
    throw new TypeError(`${name}: ${(error as Error).message}`);
  }
}

/**
 * Middleware that lets a request through only with a valid credential, and sets `req.auth`.
 * Failures go to `next(err)`: the uniform 401 (`UnauthenticatedError`) or a 503
 * (`UnavailableError`), which `errorHandler()` answers. Options are checked here, once: a bad
 * `accept` throws `TypeError` when the middleware is created.
 *
 * @example
 * ```ts
 * app.get('/drops', requireAuth(authenticator), (req, res) => res.json({ owner: req.auth!.accountId }));
 * app.post('/admin/rotate', requireAuth(authenticator, { accept: ['id_token'] }), rotate);
 * ```
 */
export function requireAuth(authenticator: Authenticator, options?: AuthMiddlewareOptions): RequestHandler {
  return authMiddleware('requireAuth', authenticator, options);
}

/**
 * Middleware for routes that also serve anonymous callers: no `Authorization` header at all
 * passes with `req.auth` set to `null` (as the core's `authenticateOptional` answers); a header
 * that is present and does not authenticate is still the uniform 401, never a fallback to
 * anonymous.
 *
 * @example
 * ```ts
 * app.post('/deploy', optionalAuth(authenticator), (req, res) => {
 *   const owner = req.auth?.accountId ?? null; // null: an anonymous deploy
 *   res.status(201).json({ owner });
 * });
 * ```
 */
export function optionalAuth(authenticator: Authenticator, options?: AuthMiddlewareOptions): RequestHandler {
  return authMiddleware('optionalAuth', authenticator, options);
}

/** Both middlewares: options checked once, then `req.auth` set or the failure passed to `next`. */
function authMiddleware(
  name: 'requireAuth' | 'optionalAuth',
  authenticator: Authenticator,
  options: AuthMiddlewareOptions | undefined,
): RequestHandler {
  checkAuthenticator(authenticator, name);
  const accept = acceptOf(options, name);
  const optional = name === 'optionalAuth';
  return (req, _res, next) => {
    const authorization = authorizationOfNodeRequest(req);
    const authenticated = optional
      ? authenticator.authenticateOptional(authorization, { accept })
      : authenticator.authenticate(authorization, { accept });
    authenticated.then((principal) => {
      req.auth = principal;
      next();
    }, next);
  };
}
