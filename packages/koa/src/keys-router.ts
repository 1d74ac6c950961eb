import type { Authenticator, KeyManager, KeyRoutesOptions } from '@drops/auth';
import { authorizationOfNodeRequest, createKeyRoutes } from '@drops/auth/adapter';
import Router from '@koa/router';
import { readKeysBody } from './read-json-body.js';
import { requestInfoOf } from './request-info.js';
import { respondWithAnswer } from './respond-with-error.js';
import { routeHandler, type OnError } from './route-handler.js';

/** Options of `keysRouter()`: see `KeyRoutesOptions` of `@drops/auth`. */
export type KeysRouterOptions = KeyRoutesOptions;

/**
 * `/keys` and everything under it. A RegExp rather than path syntax: `{/*rest}` is path-to-regexp 8
 * (@koa/router 14 and later) and "Unexpected MODIFIER" in path-to-regexp 6 (@koa/router 12, 13);
 * every router from 12 on takes a RegExp.
 */
const KEYS_AND_BELOW = /^\/keys(?:\/.*)?$/;

/**
 * The `/keys` routes of `createKeyRoutes` on `@koa/router`: every method and path under `/keys`
 * goes to the core, which authenticates first (without a credential the uniform 401, never a 404
 * or 405 that would reveal what exists).
 * @internal Reached through `dropsAuth(...).keysRouter()`.
 */
export function createKeysRouter(
  authenticator: Authenticator,
  keys: KeyManager,
  options: KeysRouterOptions | undefined,
  onError?: OnError,
): Router {
  const routes = createKeyRoutes(authenticator, keys, options, 'keysRouter()');
  const router = new Router();
  router.all(
    KEYS_AND_BELOW,
    routeHandler(async (ctx) => {
      const answer = await routes.handle({
        method: ctx.method,
        path: ctx.path.slice('/keys'.length),
        query: new URLSearchParams(ctx.querystring),
        authorization: authorizationOfNodeRequest(ctx.req),
        info: () => requestInfoOf(ctx),
        readJson: (limit) => readKeysBody(ctx, limit),
        // `respondWithError` writes an error after authentication with `ctx.state.auth` too (the expiry warning).
        authenticated: (principal) => (ctx.state['auth'] = principal),
      });
      respondWithAnswer(ctx, answer, ctx.state['auth']);
    }, onError),
  );
  return router;
}
