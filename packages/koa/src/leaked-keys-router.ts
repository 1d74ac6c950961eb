import type { KeyManager, LeakedKeysOptions } from '@drops/auth';
import {
  createLeakedKeyRoutes,
  GITHUB_SECRET_SCANNING_PATH,
  REVOKE_CREDENTIALS_PATH,
  type LeakedKeyRequest,
  type RouteAnswer,
} from '@drops/auth/adapter';
import Router from '@koa/router';
import type { Context } from 'koa';
import { readKeysBody, readRawBody } from './read-json-body.js';
import { requestInfoOf } from './request-info.js';
import { respondWithAnswer } from './respond-with-error.js';
import { methodNotAllowed, routeHandler, type OnError } from './route-handler.js';

/** Options of `leakedKeysRouter()`: see `LeakedKeysOptions` of `@drops/auth`. */
export type LeakedKeysRouterOptions = LeakedKeysOptions;

const WHERE = 'leakedKeysRouter()';

/**
 * `POST /credentials/revoke` and `POST /secret-scanning/github` on `@koa/router` (see
 * `DropsAuthKoa.leakedKeysRouter`), their 405s included.
 * @internal Reached through `dropsAuth(...).leakedKeysRouter()`.
 */
export function createLeakedKeysRouter(keys: KeyManager, options: LeakedKeysRouterOptions | undefined, onError?: OnError): Router {
  const routes = createLeakedKeyRoutes(keys, options, WHERE);
  const requestOf = (ctx: Context): LeakedKeyRequest => ({
    headers: ctx.req.headers,
    info: requestInfoOf(ctx),
    readBytes: (limit) => readRawBody(ctx, limit, WHERE),
    readJson: (limit, example) => readKeysBody(ctx, limit, example),
  });
  const serve = (handle: (request: LeakedKeyRequest) => Promise<RouteAnswer>) =>
    routeHandler(async (ctx) => respondWithAnswer(ctx, await handle(requestOf(ctx))), onError);

  const router = new Router();
  router.post(REVOKE_CREDENTIALS_PATH, serve(routes.revokeCredentials));
  router.all(REVOKE_CREDENTIALS_PATH, methodNotAllowed(['POST'], onError));
  if (routes.githubSecretScanning !== null) {
    router.post(GITHUB_SECRET_SCANNING_PATH, serve(routes.githubSecretScanning));
    router.all(GITHUB_SECRET_SCANNING_PATH, methodNotAllowed(['POST'], onError));
  }
  return router;
}
