import type { Authenticator } from '@drops/auth';
import {
  authorizationOfNodeRequest,
  createAuthCheck,
  isErrorAnswer,
  KEY_EXPIRATION_HEADER,
  keyExpirationHeader,
  parseAuthRouteOptions,
  type AuthAnswer,
  type AuthRouteOptions,
} from '@drops/auth/adapter';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Fail } from './fail.js';
import { setRequestAuth } from './request-auth.js';
import { requestInfoOf } from './request-info.js';

/** Options of `requireAuth()` and `optionalAuth()`. */
export type AuthMiddlewareOptions = AuthRouteOptions;

/**
 * The middleware behind `requireAuth()` and `optionalAuth()`: options checked once, then
 * `req.auth` set or the failure handed to `fail`. The credential is read from the raw headers, so
 * two `Authorization` headers are the uniform 401. When the answer is at hand (a store answering
 * from memory, a cached ID token) `next` is called in the same call; otherwise from the promise's
 * reaction. Never a rejected promise left to Express 4, which ignores them.
 * @internal
 */
export function authMiddleware(
  name: 'requireAuth' | 'optionalAuth',
  authenticator: Authenticator,
  options: AuthMiddlewareOptions | undefined,
  fail: Fail,
): RequestHandler {
  const accept = parseAuthRouteOptions(options, authenticator, name);
  const check = createAuthCheck(authenticator, { accept, optional: name === 'optionalAuth' });
  const finish = (req: Request, res: Response, next: NextFunction, answer: AuthAnswer): void => {
    if (isErrorAnswer(answer)) {
      fail(req, res, next, answer);
      return;
    }
    setRequestAuth(req, answer);
    const expiration = keyExpirationHeader(answer);
    if (expiration !== null) res.setHeader(KEY_EXPIRATION_HEADER, expiration);
    next();
  };
  return (req, res, next) => {
    let answer: ReturnType<typeof check>;
    try {
      // `req.ip` is a getter (proxy settings, header parsing): read only if a first use is written.
      answer = check(authorizationOfNodeRequest(req), () => requestInfoOf(req));
    } catch (error) {
      // A request whose raw headers cannot be read: an error like any other, to `next`.
      fail(req, res, next, error);
      return;
    }
    if (answer instanceof Promise) {
      answer.then(
        (settled) => finish(req, res, next, settled),
        (error: unknown) => fail(req, res, next, error),
      );
    } else finish(req, res, next, answer);
  };
}
