import { DropsAuthError, type Authenticator } from '@drops/auth';
import {
  answerOfError,
  authorizationOfNodeRequest,
  KEY_EXPIRATION_HEADER,
  keyExpirationHeader,
  parseAuthRouteOptions,
  type AuthRouteOptions,
} from '@drops/auth/adapter';
import type { Middleware } from 'koa';
import type { DropsAuthState, OptionalDropsAuthState } from './drops-auth-state.js';
import { requestInfoOf } from './request-info.js';
import { answerError, type OnError } from './route-handler.js';

/** Options of `requireAuth()` and `optionalAuth()`. */
export type AuthMiddlewareOptions = AuthRouteOptions;

/**
 * Builds the middleware behind `requireAuth()` (`optional: false`) and `optionalAuth()`
 * (`optional: true`). Options are checked here, once.
 * @internal
 */
export function authMiddleware(
  authenticator: Authenticator,
  optional: true,
  options?: AuthMiddlewareOptions,
  onError?: OnError,
): Middleware<OptionalDropsAuthState>;
export function authMiddleware(
  authenticator: Authenticator,
  optional: false,
  options?: AuthMiddlewareOptions,
  onError?: OnError,
): Middleware<DropsAuthState>;
export function authMiddleware(
  authenticator: Authenticator,
  optional: boolean,
  options?: AuthMiddlewareOptions,
  onError?: OnError,
): Middleware<OptionalDropsAuthState> {
  const accept = parseAuthRouteOptions(options, authenticator, optional ? 'optionalAuth()' : 'requireAuth()');
  return async (ctx, next) => {
    let principal;
    // `ctx.ip` is a getter (proxy settings, header parsing): read only if a first use is written.
    const authOptions = { accept, request: () => requestInfoOf(ctx) };
    try {
      principal = optional
        ? await authenticator.authenticateOptional(authorizationOfNodeRequest(ctx.req), authOptions)
        : await authenticator.authenticate(authorizationOfNodeRequest(ctx.req), authOptions);
    } catch (error) {
      // Only authentication failures are answered here; errors of the routes below propagate.
      if (error instanceof DropsAuthError) return answerError(ctx, answerOfError(error, authenticator), onError);
      throw error;
    }
    ctx.state.auth = principal;
    const expiration = keyExpirationHeader(principal);
    if (expiration !== null) ctx.set(KEY_EXPIRATION_HEADER, expiration);
    await next();
  };
}
