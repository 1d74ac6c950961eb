import type { DropsAuthError } from '@drops/auth';
import { parseAdapterOptions, type AdapterOptions } from '@drops/auth/adapter';
import type { ErrorRequestHandler, Request, RequestHandler, Router } from 'express';
import { authMiddleware, type AuthMiddlewareOptions } from './auth-middleware.js';
import { createErrorHandler, type ErrorHandlerOptions } from './error-handler.js';
import { failWith } from './fail.js';
import { createKeysRouter, type KeysRouterOptions } from './keys-router.js';
import { createLeakedKeysRouter, type LeakedKeysRouterOptions } from './leaked-keys-router.js';

/** Options of {@link dropsAuth}: `authenticator`, `keys` (for the routers) and `onError`. */
export type DropsAuthOptions = AdapterOptions<Request>;

/** The Express side of drops-auth, bound to one authenticator. */
export interface DropsAuthExpress {
  /**
   * Middleware that lets a request through only with a valid credential and sets `req.auth`
   * (read it with `principalOf(req)`). A failure is answered here with the error's own bytes:
   * the uniform 401, or a 503 with `Retry-After`, never Express's HTML page. `accept` (default
   * both) limits the credential types; a bad option is a `TypeError` here.
   */
  requireAuth(options?: AuthMiddlewareOptions): RequestHandler;
  /** Like `requireAuth()`, but no `Authorization` header at all passes with `req.auth = null`; a bad one is still the 401. */
  optionalAuth(options?: AuthMiddlewareOptions): RequestHandler;
  /**
   * The `/keys` routes (`KEY_ROUTES` of `@drops/auth/adapter`; https://github.com/drops-dev/drops-auth/blob/main/docs/reference-server.md says what
   * each answers), to mount at `/keys`. Every
   * method and path below is authenticated first. `bodyLimit` (bytes, default
   * 16 384) caps the `POST /keys` body. Needs `keys`.
   */
  keysRouter(options?: KeysRouterOptions): Router;
  /**
   * `POST /credentials/revoke` and `POST /secret-scanning/github` (no credential: holding a key
   * is the right to kill it), to mount at the root, before any body parser (GitHub signs the raw
   * bytes) or behind `express.raw()`. Needs `keys`.
   */
  leakedKeysRouter(options?: LeakedKeysRouterOptions): Router;
  /**
   * Mount after your routes: answers drops-auth errors your routes throw, and the errors of a
   * body parser mounted before drops' routes (the uniform 401 without a valid credential, else a
   * JSON 400/413). Other errors go on to your own handler.
   */
  errorHandler(options?: ErrorHandlerOptions): ErrorRequestHandler;
}

/**
 * drops auth for Express 4 and 5, bound to an authenticator (and a key manager for the routers).
 * Options are checked here, and each middleware's when it is built: a mistake, an unknown option
 * included, is a `TypeError` at start-up, never on a request. Every failure is answered with the
 * core's exact bytes after `onError` has seen it.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { createAuthenticator, createKeyManager, MemoryKeyStore } from '@drops/auth';
 * import { dropsAuth, principalOf } from '@drops/auth-express';
 *
 * const keyStore = new MemoryKeyStore();
 * const auth = dropsAuth({
 *   authenticator: createAuthenticator({ keyStore, idTokenVerifier }),
 *   keys: createKeyManager({ keyStore }),
 *   onError: (err, req) => console.info(req.path, err.code),
 * });
 *
 * const app = express();
 * app.use(express.json()); // may come first: the credential is still judged before the body
 * app.use('/keys', auth.keysRouter());
 * app.use(auth.leakedKeysRouter()); // POST /credentials/revoke, POST /secret-scanning/github
 * app.get('/whoami', auth.requireAuth(), (req, res) => res.json({ accountId: principalOf(req).accountId }));
 * app.use(auth.errorHandler());
 * ```
 */
export function dropsAuth(options: DropsAuthOptions): DropsAuthExpress {
  const { authenticator, keys, onError } = parseAdapterOptions(options, 'dropsAuth');
  const fail = failWith(authenticator, onError as ((error: DropsAuthError, req: Request) => void) | undefined);
  const needKeys = (name: string): NonNullable<typeof keys> => {
    if (keys === undefined) throw new TypeError(`dropsAuth: pass \`keys: createKeyManager(...)\` to use ${name}()`);
    return keys;
  };
  return {
    requireAuth: (routeOptions) => authMiddleware('requireAuth', authenticator, routeOptions, fail),
    optionalAuth: (routeOptions) => authMiddleware('optionalAuth', authenticator, routeOptions, fail),
    keysRouter: (routerOptions) => createKeysRouter(authenticator, needKeys('keysRouter'), routerOptions, fail),
    leakedKeysRouter: (routerOptions) => createLeakedKeysRouter(needKeys('leakedKeysRouter'), routerOptions, fail, 'leakedKeysRouter'),
    errorHandler: (handlerOptions) => createErrorHandler(authenticator, handlerOptions, fail),
  };
}
