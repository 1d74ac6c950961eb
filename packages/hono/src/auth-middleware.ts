import { DropsAuthError, type Authenticator, type Principal } from '@drops/auth';
import {
  answerOfError,
  KEY_EXPIRATION_HEADER,
  keyExpirationHeader,
  parseAuthRouteOptions,
  type AuthRouteOptions,
} from '@drops/auth/adapter';
import type { MiddlewareHandler } from 'hono';
import { answerError, type OnError } from './answer-error.js';
import { clientInfoOf, type ClientIp } from './client-info.js';
import type { DropsAuthVariables, OptionalDropsAuthVariables } from './drops-auth-variables.js';

/** Options of `requireAuth()` and `optionalAuth()`. */
export type AuthMiddlewareOptions = AuthRouteOptions;

/** What the middleware needs of `dropsAuth()`. @internal */
export interface AuthMiddlewareContext {
  readonly authenticator: Authenticator;
  readonly clientIp: ClientIp | undefined;
  readonly onError: OnError | undefined;
}

/**
 * Builds the middleware behind `requireAuth()` (`optional: false`) and `optionalAuth()`
 * (`optional: true`). Options are checked here, once.
 * @internal
 */
export function authMiddleware(
  context: AuthMiddlewareContext,
  optional: true,
  options?: AuthMiddlewareOptions,
): MiddlewareHandler<{ Variables: OptionalDropsAuthVariables }>;
export function authMiddleware(
  context: AuthMiddlewareContext,
  optional: false,
  options?: AuthMiddlewareOptions,
): MiddlewareHandler<{ Variables: DropsAuthVariables }>;
export function authMiddleware(
  { authenticator, clientIp, onError }: AuthMiddlewareContext,
  optional: boolean,
  options?: AuthMiddlewareOptions,
): MiddlewareHandler<{ Variables: DropsAuthVariables }> | MiddlewareHandler<{ Variables: OptionalDropsAuthVariables }> {
  const accept = parseAuthRouteOptions(options, authenticator, optional ? 'optionalAuth()' : 'requireAuth()');
  const middleware: MiddlewareHandler<{ Variables: OptionalDropsAuthVariables }> = async (c, next) => {
    let principal: Principal | null;
    // The client's address is looked up only if a key's first use is written.
    const authOptions = { accept, request: () => clientInfoOf(c, clientIp) };
    try {
      principal = optional
        ? await authenticator.authenticateOptional(c.req.raw.headers, authOptions)
        : await authenticator.authenticate(c.req.raw.headers, authOptions);
    } catch (error) {
      // Only authentication failures are answered here; errors of the routes below propagate.
      if (error instanceof DropsAuthError) return answerError(c, answerOfError(error, authenticator), onError);
      throw error;
    }
    c.set('auth', principal);
    const expiration = keyExpirationHeader(principal);
    if (expiration !== null) c.header(KEY_EXPIRATION_HEADER, expiration);
    await next();
  };
  return middleware;
}
