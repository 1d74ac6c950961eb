import type { KeyManager, LeakedKeysOptions } from '@drops/auth';
import {
  createLeakedKeyRoutes,
  GITHUB_SECRET_SCANNING_PATH,
  REVOKE_CREDENTIALS_PATH,
  type LeakedKeyRequest,
  type RouteAnswer,
} from '@drops/auth/internal';
import { Router, type Request } from 'express';
import { ANSWER_DIRECTLY, type ErrorMode } from './error-mode.js';
import { readKeysBody, readRawBody } from './read-json-body.js';
import { requestInfoOf } from './request-info.js';
import { methodNotAllowed, routeHandler } from './route-handler.js';
import { sendAnswer } from './send-error.js';

/** Options of `leakedKeysRouter()`: see `LeakedKeysOptions` of `@drops/auth`. */
export type LeakedKeysRouterOptions = LeakedKeysOptions;

/**
 * The routes that kill a leaked key, to mount at the root of the app (or under a prefix). Neither
 * takes a credential (an `Authorization` header is ignored): holding a secret is the right to
 * revoke it.
 *
 * - `POST /credentials/revoke` with `{"credentials": ["hp_…", …]}` (1 to 1000 entries; entries
 *   not shaped like a key are ignored): revokes every active key among them, of any account, then
 *   `202` with the same bytes whether or not any key existed. `400 {error}` for another body,
 *   `413` over `revokeBodyLimit`, `429` with `Retry-After` past `revokeRateLimit` per `req.ip`,
 *   `503` when the key store cannot answer.
 * - `POST /secret-scanning/github`: GitHub's secret scanning alert, verified against GitHub's
 *   signature over the raw body before anything else (missing or bad: `401 {error}`, nothing
 *   revoked; GitHub's key list unreachable: 503). Every match that is one of our keys is revoked;
 *   the answer is `200` with GitHub's feedback `[{"token_hash", "token_type", "label"}]`.
 *
 * Mount it before any body parser that would consume `POST /secret-scanning/github` (GitHub signs
 * the raw bytes; `express.raw()` is fine). Revocations are key events with the client's `req.ip`
 * (set `trust proxy` behind a proxy: it also keys the rate limit) and `User-Agent`. Works on
 * Express 4 and 5. Options are checked here, once.
 *
 * @example
 * ```ts
 * import { createGitHubSecretScanning, createKeyManager } from '@drops/auth';
 * import { leakedKeysRouter } from '@drops/auth-express';
 *
 * app.use(leakedKeysRouter(createKeyManager({ keyStore }), {
 *   githubSecretScanning: createGitHubSecretScanning({ keysUrl: process.env.GITHUB_SECRET_SCANNING_KEYS_URL }),
 *   revokeRateLimit: { max: 60, windowMs: 3_600_000 },
 * }));
 * ```
 */
export function leakedKeysRouter(keys: KeyManager, options?: LeakedKeysRouterOptions): Router {
  return createLeakedKeysRouter(keys, options, ANSWER_DIRECTLY, 'leakedKeysRouter');
}

/** {@link leakedKeysRouter} with the error mode of its `dropsAuth()`. @internal */
export function createLeakedKeysRouter(
  keys: KeyManager,
  options: LeakedKeysRouterOptions | undefined,
  mode: Readonly<ErrorMode>,
  where: string,
): Router {
  const routes = createLeakedKeyRoutes(keys, options, where);
  const requestOf = (req: Request): LeakedKeyRequest => ({
    headers: req.headers,
    info: requestInfoOf(req),
    readBytes: (limit) => readRawBody(req, limit, where),
    readJson: (limit, example) => readKeysBody(req, limit, example),
  });
  const serve = (handle: (request: LeakedKeyRequest) => Promise<RouteAnswer>) =>
    routeHandler(mode, async (req, res) => sendAnswer(res, await handle(requestOf(req))));

  const router = Router();
  router.route(REVOKE_CREDENTIALS_PATH).post(serve(routes.revokeCredentials)).all(methodNotAllowed(mode, 'POST'));
  if (routes.githubSecretScanning !== null) {
    router.route(GITHUB_SECRET_SCANNING_PATH).post(serve(routes.githubSecretScanning)).all(methodNotAllowed(mode, 'POST'));
  }
  return router;
}
