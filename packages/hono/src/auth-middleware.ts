import { DropsAuthError, type Authenticator, type CredentialType, type Principal } from '@drops/auth';
import { KEY_EXPIRATION_HEADER, keyExpirationHeader, parseAccept } from '@drops/auth/adapter';
import type { MiddlewareHandler } from 'hono';
import { answerError, type OnError } from './answer-error.js';
import { clientInfoOf, type ClientIp } from './client-info.js';
import type { DropsAuthVariables, OptionalDropsAuthVariables } from './drops-auth-variables.js';

/** Options of `requireAuth()` and `optionalAuth()`. */
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
  const accept = parseOptions(optional ? 'optionalAuth' : 'requireAuth', options);
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
      if (error instanceof DropsAuthError) return answerError(c, error, onError);
      throw error;
    }
    c.set('auth', principal);
    const expiration = keyExpirationHeader(principal);
    if (expiration !== null) c.header(KEY_EXPIRATION_HEADER, expiration);
    await next();
  };
  return middleware;
}
