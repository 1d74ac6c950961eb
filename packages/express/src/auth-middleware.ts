import type { Authenticator, Principal } from '@drops/auth';
import {
  authorizationOfNodeRequest,
  KEY_EXPIRATION_HEADER,
  keyExpirationHeader,
  parseAuthRouteOptions,
  type AuthRouteOptions,
} from '@drops/auth/adapter';
import type { RequestHandler } from 'express';
import type { Fail } from './fail.js';
import './request-auth.js';
import { requestInfoOf } from './request-info.js';

/** Options of `requireAuth()` and `optionalAuth()`. */
export type AuthMiddlewareOptions = AuthRouteOptions;

/**
 * The middleware behind `requireAuth()` and `optionalAuth()`: options checked once, then
 * `req.auth` set or the failure handed to `fail`. The credential is read from the raw headers, so
 * two `Authorization` headers are the uniform 401. Never a rejected promise left to Express 4,
 * which ignores them.
 * @internal
 */
export function authMiddleware(
  name: 'requireAuth' | 'optionalAuth',
  authenticator: Authenticator,
  options: AuthMiddlewareOptions | undefined,
  fail: Fail,
): RequestHandler {
  const accept = parseAuthRouteOptions(options, authenticator, name);
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
      const authOptions = { accept, request: () => requestInfoOf(req) };
      authenticated = Promise.resolve(
        optional ? authenticator.authenticateOptional(authorization, authOptions) : authenticator.authenticate(authorization, authOptions),
      );
    } catch (error) {
      authenticated = Promise.reject(error);
    }
    authenticated.then(
      (principal) => {
        req.auth = principal;
        const expiration = keyExpirationHeader(principal);
        if (expiration !== null) res.setHeader(KEY_EXPIRATION_HEADER, expiration);
        next();
      },
      (error: unknown) => fail(req, res, next, error),
    );
  };
}
