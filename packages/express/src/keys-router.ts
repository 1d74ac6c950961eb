import type { Authenticator, KeyManager, KeyRoutesOptions } from '@drops/auth';
import { authorizationOfNodeRequest, createKeyRoutes, KEY_ROUTE_PATHS, writeNodeAnswer } from '@drops/auth/adapter';
import { Router, type ErrorRequestHandler } from 'express';
import type { Fail } from './fail.js';
import { readKeysBody } from './read-json-body.js';
import { requestInfoOf } from './request-info.js';
import { setRequestAuth } from './request-auth.js';
import { routeHandler } from './route-handler.js';

/** Options of `keysRouter()`: see `KeyRoutesOptions` of `@drops/auth`. */
export type KeysRouterOptions = KeyRoutesOptions;

/**
 * The `/keys` routes of `createKeyRoutes` as an Express router, answering every path and method
 * below its mount point (the core authenticates first: without a credential the uniform 401, never
 * a 404 or 405).
 * @internal Reached through `dropsAuth(...).keysRouter()`.
 */
export function createKeysRouter(
  authenticator: Authenticator,
  keys: KeyManager,
  options: KeysRouterOptions | undefined,
  fail: Fail,
): Router {
  const routes = createKeyRoutes(authenticator, keys, options, 'keysRouter');
  const handle = routeHandler(fail, async (req, res) => {
    const answer = await routes.handle({
      method: req.method,
      path: req.path,
      query: new URL(req.originalUrl, 'http://localhost').searchParams,
      authorization: authorizationOfNodeRequest(req),
      info: () => requestInfoOf(req),
      readJson: (limit) => readKeysBody(req, limit),
      // `fail` writes an error after authentication with `req.auth` too (the expiry warning).
      authenticated: (principal) => setRequestAuth(req, principal),
    });
    writeNodeAnswer(res, answer, req.auth);
  });
  // Every path goes to the one core; the core's paths are declared (literal ones first) so that
  // Express names the one that answered (`req.route`: `/keys/:id` in an access log), the last
  // layer takes the rest.
  const router = Router();
  for (const path of KEY_ROUTE_PATHS) router.all(path, handle);
  router.use(handle);
  // Express refuses an id it cannot percent-decode (`/keys/%E0%A4%A`) before any handler: the
  // core answers it too, credential first, as for any other bad id.
  router.use(((error, req, res, next) => {
    if (error instanceof URIError) handle(req, res, next);
    else next(error);
  }) as ErrorRequestHandler);
  return router;
}
