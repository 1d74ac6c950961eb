import { parseAdapterOptions, type AdapterOptions } from '@drops/auth/adapter';
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { authMiddleware, type AuthMiddlewareOptions } from './auth-middleware.js';
import type { DropsAuthState, OptionalDropsAuthState } from './drops-auth-state.js';
import { createKeysRouter, type KeysRouterOptions } from './keys-router.js';
import type { OnError } from './route-handler.js';
import { createLeakedKeysRouter, type LeakedKeysRouterOptions } from './leaked-keys-router.js';

/** Options of {@link dropsAuth}. */
export type DropsAuthOptions = AdapterOptions<Context>;

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
   * A `@koa/router` router with the `/keys` routes (`KEY_ROUTES` of `@drops/auth/adapter`;
   * https://github.com/drops-dev/drops-auth/blob/main/docs/reference-server.md says what each answers). Mount it with
   * `app.use(router.routes())`; it answers its own 404 and 405.
   * `bodyLimit` (bytes, default 16 384) caps the `POST /keys` body; over it a 413.
   * Throws `TypeError` when `dropsAuth` was created without `keys`, or for a bad option.
   */
  keysRouter(options?: KeysRouterOptions): Router;
  /**
   * A `@koa/router` router with the routes that kill a leaked key; neither takes a credential
   * (an `Authorization` header is ignored): holding a secret is the right to revoke it.
   *
   * - `POST /credentials/revoke` with `{"credentials": ["hp_…", …]}` (1 to 1000 entries; entries
   *   not shaped like a key are ignored): revokes every active key among them, then `202` with
   *   the same bytes whether or not any key existed. `400 {error}` for another body, `413` over
   *   `revokeBodyLimit`, `429` with `Retry-After` past `revokeRateLimit` per `ctx.ip`, `503`
   *   when the key store cannot answer.
   * - `POST /secret-scanning/github`: GitHub's secret scanning alert, verified against GitHub's
   *   signature over the raw body first (missing or bad: `401 {error}`, nothing revoked; GitHub's
   *   key list unreachable: 503); then every match that is one of our keys is revoked and the
   *   answer is `200` with GitHub's feedback `[{"token_hash", "token_type", "label"}]`.
   *
   * Mount it before a body parser (GitHub signs the raw bytes), or behind one that keeps
   * `ctx.request.rawBody`. Revocations are key events with `ctx.ip` (set `app.proxy` behind a
   * proxy: it also keys the rate limit) and `User-Agent`. Options (`LeakedKeysOptions` of
   * `@drops/auth`) are checked here; throws `TypeError` when `dropsAuth` was created without `keys`.
   *
   * @example
   * ```ts
   * import { createGitHubSecretScanning } from '@drops/auth';
   *
   * app.use(auth.leakedKeysRouter({
   *   githubSecretScanning: createGitHubSecretScanning({ keysUrl: process.env.GITHUB_SECRET_SCANNING_KEYS_URL }),
   * }).routes());
   * ```
   */
  leakedKeysRouter(options?: LeakedKeysRouterOptions): Router;
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
 * app.use(auth.leakedKeysRouter().routes()); // POST /credentials/revoke, POST /secret-scanning/github
 * app.use(router.routes()).use(router.allowedMethods());
 * ```
 */
export function dropsAuth(options: DropsAuthOptions): DropsAuthKoa {
  const { authenticator, keys, onError: onAnyError } = parseAdapterOptions(options, 'dropsAuth()');
  const onError = onAnyError as OnError | undefined;

  return {
    requireAuth: (routeOptions) => authMiddleware(authenticator, false, routeOptions, onError),
    optionalAuth: (routeOptions) => authMiddleware(authenticator, true, routeOptions, onError),
    keysRouter(routerOptions) {
      if (keys === undefined) {
        throw new TypeError('keysRouter(): pass keys: createKeyManager({ keyStore }) to dropsAuth()');
      }
      return createKeysRouter(authenticator, keys, routerOptions, onError);
    },
    leakedKeysRouter(routerOptions) {
      if (keys === undefined) {
        throw new TypeError('leakedKeysRouter(): pass keys: createKeyManager({ keyStore }) to dropsAuth()');
      }
      return createLeakedKeysRouter(keys, routerOptions, onError);
    },
  };
}
