import type { Authenticator, KeyManager, KeyRoutesOptions } from '@drops/auth';
import { authorizationOfNodeRequest, createKeyRoutes, writeNodeAnswer } from '@drops/auth/adapter';
import { Router } from 'express';
import type { Fail } from './fail.js';
import { readKeysBody } from './read-json-body.js';
import { requestInfoOf } from './request-info.js';
import { routeHandler } from './route-handler.js';

/** Options of `keysRouter()`: see `KeyRoutesOptions` of `@drops/auth`. */
export type KeysRouterOptions = KeyRoutesOptions;

/**
 * The `/keys` routes of `createKeyRoutes` as an Express router, answering every path and method
 * below its mount point (the core authenticates first: without a credential the uniform 401, never
 * a 404 or 405).
 * @internal Reached through `dropsAuth(...).keysRouter()`.
 */
export function createKeysRouter(authenticator: Authenticator, keys: KeyManager, options: KeysRouterOptions | undefined, fail: Fail): Router {
  const routes = createKeyRoutes(authenticator, keys, options, 'keysRouter');
  const router = Router();
  router.use(
    routeHandler(fail, async (req, res) => {
      const answer = await routes.handle({
        method: req.method,
        path: req.path,
        query: new URL(req.originalUrl, 'http://localhost').searchParams,
        authorization: authorizationOfNodeRequest(req),
        info: () => requestInfoOf(req),
        readJson: (limit) => readKeysBody(req, limit),
      });
      writeNodeAnswer(res, answer);
    }),
  );
  return router;
}
