import { DropsAuthError, type Authenticator, type CredentialType } from '@drops/auth';
import { authorizationOfNodeRequest, KEY_EXPIRATION_HEADER, keyExpirationHeader, parseAccept } from '@drops/auth/adapter';
import type { Middleware } from 'koa';
import type { DropsAuthState, OptionalDropsAuthState } from './drops-auth-state.js';
import { requestInfoOf } from './request-info.js';
import { answerError, type OnError } from './route-handler.js';

/**
 * Options of `requireAuth()` and `optionalAuth()`.
 */
export interface AuthMiddlewareOptions {
  /**
   * Credential types the route accepts. Default both: `['api_key', 'id_token']`.
   * `['id_token']` for routes only a signed-in person may use (minting keys, account settings).
   */
  accept?: readonly CredentialType[];
}

const KNOWN_OPTIONS = new Set(['accept']);

function parseOptions(name: string, options: AuthMiddlewareOptions | undefined): readonly CredentialType[] {
  if (options === undefined) return parseAccept(undefined);
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${name}(): options must be an object such as { accept: ['id_token'] }`);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) throw new TypeError(`${name}(): unknown option "${key}"`);
  }
  return parseAccept(options.accept);
}

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
  const accept = parseOptions(optional ? 'optionalAuth' : 'requireAuth', options);
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
      if (error instanceof DropsAuthError) return answerError(ctx, error, onError);
      throw error;
    }
    ctx.state.auth = principal;
    const expiration = keyExpirationHeader(principal);
    if (expiration !== null) ctx.set(KEY_EXPIRATION_HEADER, expiration);
    await next();
  };
}
