import type { Authenticator, KeyManager } from '@drops/auth';
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { authMiddleware, type AuthMiddlewareOptions } from './auth-middleware.js';
import type { DropsAuthState, OptionalDropsAuthState } from './drops-auth-state.js';
import { createKeysRouter, type KeysRouterOptions } from './keys-router.js';

/** Options of {@link dropsAuth}. */
export interface DropsAuthOptions {
  /** From `createAuthenticator({ keyStore, idTokenVerifier })` of `@drops/auth`. */
  authenticator: Authenticator;
  /** From `createKeyManager({ keyStore })` of `@drops/auth`. Needed only for `keysRouter()`. */
  keys?: KeyManager;
}

/** What {@link dropsAuth} returns: the middleware and the key routes for one authenticator. */
export interface DropsAuthKoa {
  /**
   * Middleware that lets a request through only with a valid credential, and sets
   * `ctx.state.auth` to its principal. Anything else answers the uniform 401 (or 503 when the key
   * store or identity provider cannot answer). `accept` defaults to both credential types.
   */
  requireAuth(options?: AuthMiddlewareOptions): Middleware<DropsAuthState>;
  /**
   * Middleware for routes that also work with no credential: no `Authorization` header sets
   * `ctx.state.auth` to `null`; a header that does not authenticate is still the uniform 401,
   * never a fallback to anonymous.
   */
  optionalAuth(options?: AuthMiddlewareOptions): Middleware<OptionalDropsAuthState>;
  /**
   * A `@koa/router` router with `POST /keys` (ID token only), `GET /keys` and
   * `DELETE /keys/:id`. Mount it with `app.use(router.routes())`; it answers its own 404 and 405.
   * `bodyLimit` (bytes, default 16 384) caps the `POST /keys` body; over it a 413.
   * Throws `TypeError` when `dropsAuth` was created without `keys`, or for a bad option.
   */
  keysRouter(options?: KeysRouterOptions): Router;
}

function isAuthenticator(value: unknown): value is Authenticator {
  const v = value as Partial<Authenticator> | null | undefined;
  return typeof v?.authenticate === 'function' && typeof v.authenticateOptional === 'function';
}

function isKeyManager(value: unknown): value is KeyManager {
  const v = value as Partial<KeyManager> | null | undefined;
  return typeof v?.mint === 'function' && typeof v.list === 'function' && typeof v.revoke === 'function';
}

/**
 * drops auth for Koa. Options are checked here, and each middleware's options when it is built,
 * so a mistake is a `TypeError` at start-up, never a surprise on the first request.
 *
 * Failures are answered from the core's errors (status, headers and body bytes), so the 401 is
 * the same bytes as the Express and fetch-style adapters send.
 *
 * @example
 * ```ts
 * import Koa from 'koa';
 * import Router from '@koa/router';
 * import { createAuthenticator, createKeyManager, MemoryKeyStore } from '@drops/auth';
 * import { dropsAuth } from '@drops/auth-koa';
 *
 * const keyStore = new MemoryKeyStore();
 * const auth = dropsAuth({
 *   authenticator: createAuthenticator({ keyStore, idTokenVerifier }),
 *   keys: createKeyManager({ keyStore }),
 * });
 *
 * const router = new Router();
 * router.get('/drops', auth.requireAuth(), (ctx) => {
 *   ctx.body = { owner: ctx.state.auth.accountId };
 * });
 * router.get('/account', auth.requireAuth({ accept: ['id_token'] }), (ctx) => {
 *   ctx.body = { accountId: ctx.state.auth.accountId };
 * });
 * router.post('/deploy', auth.optionalAuth(), (ctx) => {
 *   ctx.body = { owner: ctx.state.auth?.accountId ?? null };
 * });
 *
 * const app = new Koa();
 * app.use(auth.keysRouter().routes());
 * app.use(router.routes()).use(router.allowedMethods());
 * ```
 */
export function dropsAuth(options: DropsAuthOptions): DropsAuthKoa {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('dropsAuth(): options must be an object { authenticator, keys? }');
  }
  for (const key of Object.keys(options)) {
    if (key !== 'authenticator' && key !== 'keys') throw new TypeError(`dropsAuth(): unknown option "${key}"`);
  }
  const { authenticator, keys } = options;
  if (!isAuthenticator(authenticator)) {
    throw new TypeError('dropsAuth(): authenticator must come from createAuthenticator() of @drops/auth');
  }
  if (keys !== undefined && !isKeyManager(keys)) {
    throw new TypeError('dropsAuth(): keys must come from createKeyManager() of @drops/auth');
  }

  return {
    requireAuth: (routeOptions) => authMiddleware(authenticator, false, routeOptions),
    optionalAuth: (routeOptions) => authMiddleware(authenticator, true, routeOptions),
    keysRouter(routerOptions) {
      if (keys === undefined) {
        throw new TypeError('keysRouter(): pass keys: createKeyManager({ keyStore }) to dropsAuth()');
      }
      return createKeysRouter(authenticator, keys, routerOptions);
    },
  };
}
