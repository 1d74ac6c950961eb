import { parseAdapterOptions, type AdapterOptions } from '@drops/auth/adapter';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { OnError } from './answer-error.js';
import { authMiddleware, type AuthMiddlewareOptions } from './auth-middleware.js';
import type { ClientIp } from './client-info.js';
import type { DropsAuthVariables, OptionalDropsAuthVariables } from './drops-auth-variables.js';
import { createKeysRoutes, type KeysRoutesOptions } from './keys-routes.js';
import { createLeakedKeysRoutes, type LeakedKeysRoutesOptions } from './leaked-keys-routes.js';

/** Options of {@link dropsAuth}. */
export interface DropsAuthOptions extends AdapterOptions<Context> {
  /**
   * The client's address of a request, for key events and the leaked-key routes' rate limit: a
   * Web `Request` carries none, each runtime knows it its own way (Hono's `getConnInfo` of
   * `@hono/node-server/conninfo`, `hono/bun`, `hono/deno`; a header your proxy or edge sets).
   * Default: no address; no proxy header is read unless this says so. The `User-Agent` header is
   * recorded either way.
   */
  clientIp?: ClientIp;
}

/** What {@link dropsAuth} returns: the middleware and the key routes for one authenticator. */
export interface DropsAuthHono {
  /**
   * Middleware that lets a request through only with a valid credential, and sets `c.var.auth`
   * to its principal (typed in the handlers after it). Anything else answers the uniform 401 (or
   * 503 when the key store or identity provider cannot answer). `accept` defaults to both
   * credential types; an unknown option is a `TypeError`.
   */
  requireAuth(options?: AuthMiddlewareOptions): MiddlewareHandler<{ Variables: DropsAuthVariables }>;
  /**
   * Middleware for routes that also work with no credential: no `Authorization` header sets
   * `c.var.auth` to `null`; a header that does not authenticate is still the uniform 401, never
   * a fallback to anonymous.
   */
  optionalAuth(options?: AuthMiddlewareOptions): MiddlewareHandler<{ Variables: OptionalDropsAuthVariables }>;
  /**
   * A Hono app with the `/keys` routes (`KEY_ROUTES` of `@drops/auth/adapter`; https://github.com/drops-dev/drops-auth/blob/main/docs/reference-server.md
   * says what each answers), to mount with `app.route('/keys', auth.keysRoutes())`. Every method and
   * path under the mount path is authenticated first: without a valid credential the uniform
   * 401, never a 404 or 405; authenticated, other methods a 405 with `Allow`, deeper paths a 404.
   * `bodyLimit` (bytes, default 16 384) caps the `POST /keys` body; over it a 413. Throws
   * `TypeError` when `dropsAuth` was created without `keys`, or for a bad option.
   */
  keysRoutes(options?: KeysRoutesOptions): Hono<{ Variables: OptionalDropsAuthVariables }>;
  /**
   * A Hono app with the routes that kill a leaked key, to mount with
   * `app.route('/', auth.leakedKeysRoutes())`; neither takes a credential (an `Authorization`
   * header is ignored): holding a secret is the right to revoke it.
   *
   * - `POST /credentials/revoke` with `{"credentials": ["hp_…", …]}` (1 to 1000 entries; entries
   *   not shaped like a key are ignored): revokes every active key among them, then `202` with
   *   the same bytes whether or not any key existed. `400 {error}` for another body, `413` over
   *   `revokeBodyLimit`, `429` with `Retry-After` past `revokeRateLimit` per client address
   *   (`clientIp`; without it every client shares one allowance), `503` when the key store
   *   cannot answer.
   * - `POST /secret-scanning/github`: GitHub's secret scanning alert, verified against GitHub's
   *   signature over the raw body first (missing or bad: `401 {error}`, nothing revoked; GitHub's
   *   key list unreachable: 503); then every match that is one of our keys is revoked and the
   *   answer is `200` with GitHub's feedback `[{"token_hash", "token_type", "label"}]`.
   *
   * Other methods get a `405` with `Allow`. Options (`LeakedKeysOptions` of `@drops/auth`) are
   * checked here; throws `TypeError` when `dropsAuth` was created without `keys`.
   */
  leakedKeysRoutes(options?: LeakedKeysRoutesOptions): Hono;
}

function clientIpOption(clientIp: unknown): ClientIp | undefined {
  if (clientIp !== undefined && typeof clientIp !== 'function') {
    throw new TypeError('dropsAuth(): clientIp must be a function such as (c) => getConnInfo(c).remote.address');
  }
  return clientIp as ClientIp | undefined;
}

/**
 * drops auth for Hono 4, on Node (`@hono/node-server`), Bun, Deno and Cloudflare Workers.
 * Options are checked here, and each middleware's options when it is built, so a mistake is a
 * `TypeError` at start-up, never a surprise on the first request.
 *
 * Failures are answered from the core's errors (status, headers in the kit's order, body bytes),
 * so the 401 is the same bytes as the Express, Koa and fetch-style adapters send.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { createAuthenticator, createKeyManager, MemoryKeyStore } from '@drops/auth';
 * import { dropsAuth, type DropsAuthVariables } from '@drops/auth-hono';
 *
 * const keyStore = new MemoryKeyStore();
 * const auth = dropsAuth({
 *   authenticator: createAuthenticator({ keyStore, idTokenVerifier }),
 *   keys: createKeyManager({ keyStore }),
 * });
 *
 * const app = new Hono<{ Variables: DropsAuthVariables }>();
 * app.route('/keys', auth.keysRoutes());
 * app.route('/', auth.leakedKeysRoutes()); // POST /credentials/revoke, POST /secret-scanning/github
 * app.get('/whoami', auth.requireAuth(), (c) => c.json({ accountId: c.var.auth.accountId }));
 * app.get('/account', auth.requireAuth({ accept: ['id_token'] }), (c) => c.json({ accountId: c.var.auth.accountId }));
 * ```
 */
export function dropsAuth(options: DropsAuthOptions): DropsAuthHono {
  const { clientIp: clientIpGiven, ...adapterOptions } = (options ?? {}) as DropsAuthOptions;
  const clientIp = clientIpOption(clientIpGiven);
  const {
    authenticator,
    keys,
    onError: onAnyError,
  } = parseAdapterOptions(options === null || typeof options !== 'object' ? options : adapterOptions, 'dropsAuth()');
  const onError = onAnyError as OnError | undefined;
  const middleware = { authenticator, clientIp, onError };

  return {
    requireAuth: (routeOptions) => authMiddleware(middleware, false, routeOptions),
    optionalAuth: (routeOptions) => authMiddleware(middleware, true, routeOptions),
    keysRoutes(routesOptions) {
      if (keys === undefined) throw new TypeError('keysRoutes(): pass keys: createKeyManager({ keyStore }) to dropsAuth()');
      return createKeysRoutes(authenticator, keys, routesOptions, clientIp, onError);
    },
    leakedKeysRoutes(routesOptions) {
      if (keys === undefined) throw new TypeError('leakedKeysRoutes(): pass keys: createKeyManager({ keyStore }) to dropsAuth()');
      return createLeakedKeysRoutes(keys, routesOptions, clientIp, onError);
    },
  };
}
