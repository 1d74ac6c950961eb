import { DropsAuthError } from '../errors/drops-auth-error.js';
import { MethodNotAllowedError } from '../errors/method-not-allowed-error.js';
import { NotFoundError } from '../errors/not-found-error.js';
import type { KeyManager } from '../keys/create-key-manager.js';
import {
  createLeakedKeyRoutes,
  GITHUB_SECRET_SCANNING_PATH,
  REVOKE_CREDENTIALS_PATH,
  type LeakedKeyRequest,
} from '../leaked-keys/create-leaked-key-routes.js';
import type { LeakedKeysOptions } from '../leaked-keys/leaked-keys-options.js';
import type { RouteAnswer } from '../leaked-keys/route-answer.js';
import { answerResponse } from '../adapter/answer-response.js';
import { respondWithError } from './respond-with-error.js';
import { readRequestBytes, readRequestJson } from './read-request-json.js';
import { requestInfoOf, type ClientOrRouteContext } from './request-info.js';

/** Options of {@link leakedKeysHandler}: see `LeakedKeysOptions`. */
export type LeakedKeysHandlerOptions = LeakedKeysOptions;

/**
 * The routes that kill a leaked key, as one fetch-style handler (`Request` in, `Response` out);
 * the same semantics as `leakedKeysRouter` of the Express and Koa adapters. Neither takes a
 * credential (an `Authorization` header is ignored): holding a secret is the right to revoke it.
 *
 * - `POST /credentials/revoke` with `{"credentials": ["hp_…", …]}` (1 to 1000 entries; entries
 *   not shaped like a key are ignored): revokes every active key among them, of any account, then
 *   `202` with the same bytes whether or not any key existed. `400 {error}` for another body,
 *   `413` over `revokeBodyLimit`, `429` with `Retry-After` past `revokeRateLimit` per client
 *   address, `503` when the key store cannot answer.
 * - `POST /secret-scanning/github`: GitHub's secret scanning alert. The raw body (at most
 *   `secretScanningBodyLimit`, else 413) is verified against GitHub's signature first: missing
 *   or bad, a `401 {error}` and nothing is revoked; GitHub's key list unreachable, a 503. Then
 *   every match that is one of our keys is revoked, and the answer is `200` with GitHub's feedback
 *   `[{"token_hash", "token_type", "label": "true_positive" | "false_positive"}]`.
 *
 * Other methods get a `405` with `Allow`, other paths a `404`. Every revocation is a key event
 * carrying the client's address and `User-Agent`: a `Request` has no address, so pass it as the
 * handler's second argument (it also keys the rate limit; without it every client shares one
 * allowance). Options are checked here, once.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { getConnInfo } from '@hono/node-server/conninfo';
 * import { createKeyManager, leakedKeysHandler } from '@drops/auth';
 *
 * const leaked = leakedKeysHandler(createKeyManager({ keyStore }));
 * const app = new Hono();
 * app.post('/credentials/revoke', (c) => leaked(c.req.raw, { ip: getConnInfo(c).remote.address }));
 * app.post('/secret-scanning/github', (c) => leaked(c.req.raw, { ip: getConnInfo(c).remote.address }));
 * ```
 *
 * @example
 * ```ts
 * // Cloudflare Workers: the client address is a header the edge sets.
 * const leaked = leakedKeysHandler(keys, { revokeRateLimit: { max: 20, windowMs: 3_600_000 } });
 * export default {
 *   fetch: (request: Request) => leaked(request, { ip: request.headers.get('cf-connecting-ip') }),
 * };
 * ```
 */
export function leakedKeysHandler(
  keys: KeyManager,
  options?: LeakedKeysHandlerOptions,
): (request: Request, client?: ClientOrRouteContext) => Promise<Response> {
  const routes = createLeakedKeyRoutes(keys, options, 'leakedKeysHandler');

  function route(request: Request, client: ClientOrRouteContext): Promise<RouteAnswer> {
    const path = new URL(request.url).pathname;
    const handle =
      path === REVOKE_CREDENTIALS_PATH
        ? routes.revokeCredentials
        : path === GITHUB_SECRET_SCANNING_PATH
          ? routes.githubSecretScanning
          : null;
    if (handle === null) throw new NotFoundError('not found');
    if (request.method.toUpperCase() !== 'POST') throw new MethodNotAllowedError(['POST']);
    const leakedKeyRequest: LeakedKeyRequest = {
      headers: request.headers,
      info: requestInfoOf(request, client),
      readBytes: (limit) => readRequestBytes(request, limit),
      readJson: (limit, example) => readRequestJson(request, limit, example),
    };
    return handle(leakedKeyRequest);
  }

  return async (request, client) => {
    try {
      return answerResponse(await route(request, client));
    } catch (error) {
      if (error instanceof DropsAuthError) return respondWithError(error);
      throw error;
    }
  };
}
