import { parseAdapterOptions, type AdapterOptions } from '@drops/auth/adapter';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { authHook, type AuthHook, type AuthHookOptions } from './auth-hook.js';
import { createErrorHandler, type DropsAuthErrorHandler } from './error-handler.js';
import { keysRoutesPlugin, type KeysRoutesOptions } from './keys-routes.js';
import { leakedKeysRoutesPlugin, type LeakedKeysRoutesOptions } from './leaked-keys-routes.js';
import type { OnError } from './on-error.js';

/** Options of {@link dropsAuth}. */
export type DropsAuthOptions = AdapterOptions<FastifyRequest>;

/** What {@link dropsAuth} returns: the hooks and the key route plugins for one authenticator. */
export interface DropsAuthFastify {
  /**
   * A hook (as a route's `onRequest` or `preHandler`) that lets a request through only with a
   * valid credential, and sets `request.auth` to its principal. Anything else answers the uniform
   * 401 (or 503 when the key store or identity provider cannot answer). `accept` defaults to both
   * credential types. As `onRequest` it judges the credential before Fastify parses the body.
   */
  requireAuth(options?: AuthHookOptions): AuthHook;
  /**
   * A hook for routes that also work with no credential: no `Authorization` header sets
   * `request.auth` to `null`; a header that does not authenticate is still the uniform 401,
   * never a fallback to anonymous.
   */
  optionalAuth(options?: AuthHookOptions): AuthHook;
  /**
   * A plugin with the `/keys` routes (`KEY_ROUTES` of `@drops/auth/adapter`; https://github.com/drops-dev/drops-auth/blob/main/docs/reference-server.md
   * says what each answers):
   * `await app.register(auth.keysRoutes, { prefix: '/keys' })`. It answers its
   * own 404 and 405 and reads its own bodies (the app's parsers never see them: a malformed body
   * with no valid credential is the uniform 401). `bodyLimit` (bytes, default 16 384) caps the
   * `POST /keys` body; over it a 413. Registering it without a fixed prefix, without `keys` given
   * to `dropsAuth`, or with an unknown option rejects with a `TypeError`.
   */
  keysRoutes: FastifyPluginAsync<KeysRoutesOptions>;
  /**
   * A plugin with the routes that kill a leaked key; neither takes a credential (an
   * `Authorization` header is ignored): holding a secret is the right to revoke it.
   *
   * - `POST /credentials/revoke` with `{"credentials": ["hp_…", …]}` (1 to 1000 entries): revokes
   *   every active key among them, then `202` with the same bytes whether or not any key existed.
   *   `400 {error}` for another body, `413` over `revokeBodyLimit`, `429` with `Retry-After` past
   *   `revokeRateLimit` per `request.ip`, `503` when the key store cannot answer.
   * - `POST /secret-scanning/github`: GitHub's secret scanning alert, verified against GitHub's
   *   signature over the raw body first (missing or bad: `401 {error}`, nothing revoked); then
   *   every match that is one of our keys is revoked, `200` with GitHub's feedback.
   *
   * Revocations are key events with `request.ip` (set `trustProxy` behind a proxy: it also keys
   * the rate limit) and `User-Agent`. Options (`LeakedKeysOptions` of `@drops/auth`) are the
   * register options; a bad one rejects the registration with a `TypeError`.
   *
   * @example
   * ```ts
   * import { createGitHubSecretScanning } from '@drops/auth';
   *
   * await app.register(auth.leakedKeysRoutes, {
   *   githubSecretScanning: createGitHubSecretScanning({ keysUrl: process.env.GITHUB_SECRET_SCANNING_KEYS_URL }),
   * });
   * ```
   */
  leakedKeysRoutes: FastifyPluginAsync<LeakedKeysRoutesOptions>;
  /**
   * For `app.setErrorHandler()`: answers a `DropsAuthError` your route throws with its exact bytes
   * (`principalOf(request)` on a route without a hook: the hooks' own 401; `keys.revoke`'s 404),
   * after `onError`; any other error goes on to Fastify's default handler. An app with an error
   * handler of its own calls this one from it (or `respondWithError`) for drops' errors.
   *
   * @example
   * ```ts
   * app.setErrorHandler(auth.errorHandler);
   * app.get('/drops', async (req) => ({ owner: principalOf(req).accountId })); // no hook: the uniform 401
   * ```
   */
  errorHandler: DropsAuthErrorHandler;
}

/**
 * drops auth for Fastify 4 and 5. Options are checked here, and each hook's options when it is
 * built, so a mistake is a `TypeError` at start-up, never a surprise on the first request.
 *
 * Failures are answered by the hooks and plugins themselves (no `setErrorHandler` needed), from
 * the core's errors (status, headers in the canonical order, body bytes), so the 401 is the same
 * bytes as every other adapter sends.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { createAuthenticator, createKeyManager, MemoryKeyStore } from '@drops/auth';
 * import { dropsAuth } from '@drops/auth-fastify';
 *
 * const keyStore = new MemoryKeyStore();
 * const auth = dropsAuth({
 *   authenticator: createAuthenticator({ keyStore, idTokenVerifier }),
 *   keys: createKeyManager({ keyStore }),
 * });
 *
 * const app = Fastify();
 * await app.register(auth.keysRoutes, { prefix: '/keys' });
 * await app.register(auth.leakedKeysRoutes); // POST /credentials/revoke, POST /secret-scanning/github
 * app.get('/whoami', { preHandler: auth.requireAuth() }, async (req) => ({ accountId: req.auth.accountId }));
 * app.get('/account', { onRequest: auth.requireAuth({ accept: ['id_token'] }) }, async (req) => ({ accountId: req.auth.accountId }));
 * ```
 */
export function dropsAuth(options: DropsAuthOptions): DropsAuthFastify {
  const { authenticator, keys, onError: onAnyError } = parseAdapterOptions(options, 'dropsAuth()');
  const onError = onAnyError as OnError | undefined;
  return {
    requireAuth: (hookOptions) => authHook(authenticator, false, hookOptions, onError),
    optionalAuth: (hookOptions) => authHook(authenticator, true, hookOptions, onError),
    keysRoutes: keysRoutesPlugin(authenticator, keys, onError),
    leakedKeysRoutes: leakedKeysRoutesPlugin(keys, onError),
    errorHandler: createErrorHandler(authenticator, onError),
  };
}
