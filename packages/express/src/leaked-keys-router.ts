import type { KeyManager, LeakedKeysOptions } from '@drops/auth';
import {
  createLeakedKeyRoutes,
  GITHUB_SECRET_SCANNING_PATH,
  REVOKE_CREDENTIALS_PATH,
  writeNodeAnswer,
  type LeakedKeyRequest,
  type RouteAnswer,
} from '@drops/auth/adapter';
import { Router, type Request } from 'express';
import type { Fail } from './fail.js';
import { readKeysBody, readRawBody } from './read-json-body.js';
import { requestInfoOf } from './request-info.js';
import { methodNotAllowed, routeHandler } from './route-handler.js';

/** Options of `leakedKeysRouter()`: see `LeakedKeysOptions` of `@drops/auth`. */
export type LeakedKeysRouterOptions = LeakedKeysOptions;

/**
 * `POST /credentials/revoke` and `POST /secret-scanning/github` of `createLeakedKeyRoutes` as an
 * Express router, to mount at the root.
 * @internal Reached through `dropsAuth(...).leakedKeysRouter()`.
 */
export function createLeakedKeysRouter(keys: KeyManager, options: LeakedKeysRouterOptions | undefined, fail: Fail, where: string): Router {
  const routes = createLeakedKeyRoutes(keys, options, where);
  const requestOf = (req: Request): LeakedKeyRequest => ({
    headers: req.headers,
    info: requestInfoOf(req),
    readBytes: (limit) => readRawBody(req, limit, where),
    readJson: (limit, example) => readKeysBody(req, limit, example),
  });
  const serve = (handle: (request: LeakedKeyRequest) => Promise<RouteAnswer>) =>
    routeHandler(fail, async (req, res) => writeNodeAnswer(res, await handle(requestOf(req))));

  const router = Router();
  router.route(REVOKE_CREDENTIALS_PATH).post(serve(routes.revokeCredentials)).all(methodNotAllowed(fail, 'POST'));
  if (routes.githubSecretScanning !== null) {
    router.route(GITHUB_SECRET_SCANNING_PATH).post(serve(routes.githubSecretScanning)).all(methodNotAllowed(fail, 'POST'));
  }
  return router;
}
