import type { Authenticator, AuthorizationSource } from '@drops/auth';
import {
  authorizationOfNodeRequest,
  createAuthCheck,
  isErrorAnswer,
  KEY_EXPIRATION_HEADER,
  keyExpirationHeader,
  parseAuthRouteOptions,
  type AuthAnswer,
  type AuthRouteOptions,
  type NodeRequestLike,
} from '@drops/auth/adapter';
import type { Context, MiddlewareHandler, Next } from 'hono';
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
  const check = createAuthCheck(authenticator, { accept, optional });
  const finish = (c: Context, next: Next, answer: AuthAnswer): Response | ReturnType<Next> => {
    // Only authentication failures are answered here; errors of the routes below propagate.
    if (isErrorAnswer(answer)) return answerError(c, answer, onError);
    c.set('auth', answer);
    const expiration = keyExpirationHeader(answer);
    if (expiration !== null) c.header(KEY_EXPIRATION_HEADER, expiration);
    return next();
  };
  // Not async: an answer at hand goes on to `next()` in the same call and hands back its promise,
  // or the failure's `Response` itself (Hono awaits whatever a middleware returns).
  const middleware = (c: Context, next: Next) => {
    // The client's address is looked up only if a key's first use is written.
    const answer = check(authorizationOf(c), () => clientInfoOf(c, clientIp));
    return answer instanceof Promise ? answer.then<unknown>((settled) => finish(c, next, settled)) : finish(c, next, answer);
  };
  return middleware as MiddlewareHandler<{ Variables: OptionalDropsAuthVariables }>;
}

/**
 * The credential of a request. On `@hono/node-server` (its `env` is `{ incoming, outgoing }`) it is
 * read from Node's request itself, as the Node adapters do (two `Authorization` headers are the
 * uniform 401): `c.req.raw.headers` would make the server build a Web `Headers` for a route that
 * never reads one. Only while the request Hono sees is node-server's own (its prototype sits between
 * the object and `Request.prototype`): a `Request` the app built itself and handed to `app.fetch`
 * (a wrapper that rewrites or drops `Authorization`) is judged on its own headers. Elsewhere (Bun,
 * Deno, Workers) from the Web request's headers.
 */
function authorizationOf(c: Context): AuthorizationSource {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  const raw = c.req.raw;
  return isNodeRequest(incoming) && Object.getPrototypeOf(raw) !== Request.prototype ? authorizationOfNodeRequest(incoming) : raw.headers;
}

function isNodeRequest(value: unknown): value is NodeRequestLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as NodeRequestLike).rawHeaders) &&
    typeof (value as NodeRequestLike).headers === 'object'
  );
}
