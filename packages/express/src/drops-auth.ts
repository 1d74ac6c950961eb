import type { Authenticator, KeyManager } from '@drops/auth';
import type { ErrorRequestHandler, RequestHandler, Router } from 'express';
import { authMiddleware, requireAuth, type AuthMiddlewareOptions } from './auth-middleware.js';
import { errorHandler, type ErrorHandlerOptions } from './error-handler.js';
import type { ErrorMode } from './error-mode.js';
import { createKeysRouter, type KeysRouterOptions } from './keys-router.js';
import { createLeakedKeysRouter, type LeakedKeysRouterOptions } from './leaked-keys-router.js';

/** Options of {@link dropsAuth}. */
export interface DropsAuthOptions {
  /** From `createAuthenticator()`. */
  authenticator: Authenticator;
  /** From `createKeyManager()`. Needed only for `keysRouter()` and `leakedKeysRouter()`. */
  keys?: KeyManager;
}

/** The Express side of drops-auth, bound to one authenticator. */
export interface DropsAuthExpress {
  /** Middleware: a valid credential or the uniform 401; sets `req.auth`. See {@link requireAuth}. */
  requireAuth(options?: AuthMiddlewareOptions): RequestHandler;
  /** Middleware: no credential passes anonymously, a bad one is the 401. See {@link optionalAuth}. */
  optionalAuth(options?: AuthMiddlewareOptions): RequestHandler;
  /** `POST /keys`, `GET /keys`, `DELETE /keys/:id`, to mount at `/keys`. See {@link keysRouter}. */
  keysRouter(options?: KeysRouterOptions): Router;
  /**
   * `POST /credentials/revoke` and `POST /secret-scanning/github` (no credential), to mount at
   * the root. See {@link leakedKeysRouter}.
   */
  leakedKeysRouter(options?: LeakedKeysRouterOptions): Router;
  /**
   * Answers drops-auth errors with their exact bytes, passes others on. See {@link errorHandler}.
   * Optional: without it the middleware above answers its own failures (the same bytes). Once
   * it is created, they go to `next(err)` instead, so its `onError` sees every failure.
   */
  errorHandler(options?: ErrorHandlerOptions): ErrorRequestHandler;
}

/**
 * Binds the Express middleware to an authenticator (and a key manager for the `/keys` routes).
 * Options are checked here; every factory checks its own options when called, so mistakes are a
 * `TypeError` at start-up, never on a request.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { createAuthenticator, createKeyManager, MemoryKeyStore } from '@drops/auth';
 * import { dropsAuth } from '@drops/auth-express';
 *
 * const keyStore = new MemoryKeyStore();
 * const auth = dropsAuth({
 *   authenticator: createAuthenticator({ keyStore, idTokenVerifier }),
 *   keys: createKeyManager({ keyStore }),
 * });
 *
 * const app = express();
 * app.use('/keys', auth.keysRouter());
 * app.use(auth.leakedKeysRouter()); // POST /credentials/revoke, POST /secret-scanning/github
 * app.get('/whoami', auth.requireAuth(), (req, res) => res.json({ accountId: principalOf(req).accountId }));
 * app.post('/deploy', auth.optionalAuth(), deploy);
 * app.use(auth.errorHandler());
 * ```
 */
export function dropsAuth(options: DropsAuthOptions): DropsAuthExpress {
  if (options === null || typeof options !== 'object') throw new TypeError('dropsAuth: options are required');
  const { authenticator, keys } = options;
  // requireAuth checks the authenticator; do it now rather than on first use.
  requireAuth(authenticator);
  if (keys !== undefined && (keys === null || typeof keys !== 'object' || typeof keys.mint !== 'function')) {
    throw new TypeError('dropsAuth: keys must come from createKeyManager()');
  }
  // Shared by every middleware of this instance, so one created before errorHandler() sees it too.
  const mode: ErrorMode = { passToNext: false };
  return {
    requireAuth: (routeOptions) => authMiddleware('requireAuth', authenticator, routeOptions, mode),
    optionalAuth: (routeOptions) => authMiddleware('optionalAuth', authenticator, routeOptions, mode),
    keysRouter(routerOptions) {
      if (keys === undefined) throw new TypeError('dropsAuth: pass `keys: createKeyManager(...)` to use keysRouter()');
      return createKeysRouter(authenticator, keys, routerOptions ?? {}, mode);
    },
    leakedKeysRouter(routerOptions) {
      if (keys === undefined) throw new TypeError('dropsAuth: pass `keys: createKeyManager(...)` to use leakedKeysRouter()');
      return createLeakedKeysRouter(keys, routerOptions, mode, 'leakedKeysRouter');
    },
    errorHandler(handlerOptions) {
      const handler = errorHandler(handlerOptions);
      mode.passToNext = true;
      return handler;
    },
  };
}
