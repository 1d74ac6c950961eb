import { MethodNotAllowedError, type KeyManager, type LeakedKeysOptions } from '@drops/auth';
import {
  answerResponse,
  createLeakedKeyRoutes,
  GITHUB_SECRET_SCANNING_PATH,
  readRequestBytes,
  readRequestJson,
  REVOKE_CREDENTIALS_PATH,
  type LeakedKeyRequest,
  type RouteAnswer,
} from '@drops/auth/adapter';
import { Hono, type Context, type Handler } from 'hono';
import { answeringErrors, type OnError } from './answer-error.js';
import { clientInfoOf, type ClientIp } from './client-info.js';

/** Options of `leakedKeysRoutes()`: see `LeakedKeysOptions` of `@drops/auth`. */
export type LeakedKeysRoutesOptions = LeakedKeysOptions;

/**
 * `POST /credentials/revoke` and `POST /secret-scanning/github` as a Hono app (see
 * `DropsAuthHono.leakedKeysRoutes`), their 405s included.
 * @internal Reached through `dropsAuth(...).leakedKeysRoutes()`.
 */
export function createLeakedKeysRoutes(
  keys: KeyManager,
  options: LeakedKeysRoutesOptions | undefined,
  clientIp: ClientIp | undefined,
  onError: OnError | undefined,
): Hono {
  const routes = createLeakedKeyRoutes(keys, options, 'leakedKeysRoutes()');
  const requestOf = (c: Context): LeakedKeyRequest => ({
    headers: c.req.raw.headers,
    info: clientInfoOf(c, clientIp),
    readBytes: (limit) => readRequestBytes(c.req.raw, limit),
    readJson: (limit, example) => readRequestJson(c.req.raw, limit, example),
  });
  const serve =
    (handle: (request: LeakedKeyRequest) => Promise<RouteAnswer>): Handler =>
    (c) =>
      answeringErrors(c, onError, async () => answerResponse(await handle(requestOf(c))));
  const methodNotAllowed: Handler = (c) => answeringErrors(c, onError, () => Promise.reject(new MethodNotAllowedError(['POST'])));

  const app = new Hono();
  app.post(REVOKE_CREDENTIALS_PATH, serve(routes.revokeCredentials));
  app.all(REVOKE_CREDENTIALS_PATH, methodNotAllowed);
  if (routes.githubSecretScanning !== null) {
    app.post(GITHUB_SECRET_SCANNING_PATH, serve(routes.githubSecretScanning));
    app.all(GITHUB_SECRET_SCANNING_PATH, methodNotAllowed);
  }
  return app;
}
