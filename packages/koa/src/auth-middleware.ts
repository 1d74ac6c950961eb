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
import type { Context, Middleware, Next } from 'koa';
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
  const check = createAuthCheck(authenticator, { accept, optional });
  const finish = (ctx: Context, next: Next, answer: AuthAnswer): Promise<void> | undefined => {
    // Only authentication failures are answered here; errors of the routes below propagate.
    if (isErrorAnswer(answer)) {
      answerError(ctx, answer, onError);
      return undefined;
    }
    ctx.state.auth = answer;
    const expiration = keyExpirationHeader(answer);
    if (expiration !== null) ctx.set(KEY_EXPIRATION_HEADER, expiration);
    return next();
  };
  // Not async: an answer at hand goes on to `next()` in the same call and hands back its promise.
  return (ctx, next) => {
    // `ctx.ip` is a getter (proxy settings, header parsing): read only if a first use is written.
    const answer = check(authorizationOfNodeRequest(ctx.req), () => requestInfoOf(ctx));
    return answer instanceof Promise ? answer.then((settled) => finish(ctx, next, settled)) : finish(ctx, next, answer);
  };
}
