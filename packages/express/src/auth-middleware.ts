import type { Authenticator, CredentialType, Principal } from '@drops/auth';
import { authorizationOfNodeRequest, parseAccept } from '@drops/auth/internal';
import type { RequestHandler } from 'express';
import { ANSWER_DIRECTLY, fail, type ErrorMode } from './error-mode.js';
import './request-auth.js';
import { requestInfoOf } from './request-info.js';

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
 * Middleware that lets a request through only with a valid credential, and sets `req.auth`
 * (read it as a `Principal` with {@link principalOf}). A failure is answered here with the
 * error's own status, headers and body: the uniform 401 (`UnauthenticatedError`) or a 503 with
 * `Retry-After` (`UnavailableError`), never Express's HTML error page. (Through `dropsAuth()`,
 * once its `errorHandler()` is created, failures go to `next(err)` instead, for its `onError`.)
 * Options are checked here, once: a bad `accept` throws `TypeError` when the middleware is created.
 *
 * @example
 * ```ts
 * app.get('/drops', requireAuth(authenticator), (req, res) => res.json({ owner: principalOf(req).accountId }));
 * app.post('/admin/rotate', requireAuth(authenticator, { accept: ['id_token'] }), rotate);
 * ```
 */
export function requireAuth(authenticator: Authenticator, options?: AuthMiddlewareOptions): RequestHandler {
  return authMiddleware('requireAuth', authenticator, options, ANSWER_DIRECTLY);
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
  return authMiddleware('optionalAuth', authenticator, options, ANSWER_DIRECTLY);
}

/**
 * Both middlewares: options checked once, then `req.auth` set or the failure answered (or
 * passed to `next`, per `mode`). Never a rejected promise left to Express 4, which ignores them.
 * @internal
 */
export function authMiddleware(
  name: 'requireAuth' | 'optionalAuth',
  authenticator: Authenticator,
  options: AuthMiddlewareOptions | undefined,
  mode: Readonly<ErrorMode>,
): RequestHandler {
  checkAuthenticator(authenticator, name);
  const accept = acceptOf(options, name);
  const optional = name === 'optionalAuth';
  return (req, res, next) => {
    // `next` is always called from a promise reaction, never in this call; a throw (a broken
    // custom authenticator) is a rejection like any other. `Promise.resolve` hands the
    // authenticator's own promise back as it is: no wrapper promise and no extra turn on a path
    // every authenticated request takes.
    let authenticated: Promise<Principal | null>;
    try {
      const authorization = authorizationOfNodeRequest(req);
      // `req.ip` is a getter (proxy settings, header parsing): read only if a first use is written.
      const options = { accept, request: () => requestInfoOf(req) };
      authenticated = Promise.resolve(
        optional ? authenticator.authenticateOptional(authorization, options) : authenticator.authenticate(authorization, options),
      );
    } catch (error) {
      authenticated = Promise.reject(error);
    }
    authenticated.then(
      (principal) => {
        req.auth = principal;
        next();
      },
      (error: unknown) => fail(mode, res, next, error),
    );
  };
}
