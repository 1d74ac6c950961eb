import {
  NotFoundError,
  UnauthenticatedError,
  type Authenticator,
  type KeyManager,
} from '@drops/auth';
import { DEFAULT_KEYS_BODY_LIMIT, mintOptionsFromBody } from '@drops/auth/internal';
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { authMiddleware } from './auth-middleware.js';
import type { DropsAuthState } from './drops-auth-state.js';
import { readKeysBody } from './read-json-body.js';
import { requestInfoOf } from './request-info.js';
import { methodNotAllowed, routeHandler } from './route-handler.js';

/** Options of `keysRouter()`. */
export interface KeysRouterOptions {
  /** Largest `POST /keys` body read, in bytes; over it a 413. Default 16 384. */
  bodyLimit?: number;
}

type KeysContext = Context & { state: DropsAuthState; params: Record<string, string> };

const route = (handler: (ctx: KeysContext) => Promise<void>): ((ctx: Context) => Promise<void>) => routeHandler(handler);

/**
 * `/keys` and everything under it. A RegExp rather than path syntax: `{/*rest}` is path-to-regexp 8
 * (@koa/router 14 and later) and "Unexpected MODIFIER" in path-to-regexp 6 (@koa/router 12, 13);
 * every router from 12 on takes a RegExp.
 */
const KEYS_AND_BELOW = /^\/keys(?:\/.*)?$/;

/**
 * The `/keys` routes on `@koa/router`:
 *
 * - `POST /keys` (ID token only; optional JSON `{"name": "ci-main"}`) -> `201 {apiKey, id, prefix, name, createdAt}`
 * - `GET /keys` -> `200 {"keys": [{id, prefix, name, createdAt, lastUsedAt}]}`, newest first
 * - `GET /keys/events?cursor=&limit=` -> `200 {"events": [...], "next": <cursor or null>}`, the
 *   account's key events newest first; `limit` 1 to 100 (default 50), else 400
 * - `DELETE /keys/:id` -> `204`; `404` for no active key of the caller's with that id; `400` for
 *   an id that is not 64 lowercase hex
 *
 * Authentication (API key or ID token) runs for every method and path under `/keys` before
 * routing, so an unauthenticated caller gets the uniform 401, never a 404 or 405 that would
 * reveal what exists.
 * @internal Reached through `dropsAuth(...).keysRouter()`.
 */
export function createKeysRouter(
  authenticator: Authenticator,
  keys: KeyManager,
  options: KeysRouterOptions = {},
): Router {
  if (typeof options !== 'object' || options === null) throw new TypeError('keysRouter(): options must be an object');
  for (const key of Object.keys(options)) {
    if (key !== 'bodyLimit') throw new TypeError(`keysRouter(): unknown option "${key}"`);
  }
  const bodyLimit = options.bodyLimit ?? DEFAULT_KEYS_BODY_LIMIT;
  if (!Number.isSafeInteger(bodyLimit) || bodyLimit <= 0) {
    throw new TypeError('keysRouter(): bodyLimit must be a positive integer (bytes)');
  }
  const router = new Router();
  const authenticate = authMiddleware(authenticator, false) as (ctx: Context, next: Next) => Promise<void>;

  router.all(KEYS_AND_BELOW, authenticate);

  router.post(
    '/keys',
    route(async (ctx) => {
      // Refuse an API key before reading a byte of the body: a bad body must not answer 400 here.
      if (ctx.state.auth.credential !== 'id_token') throw new UnauthenticatedError('wrong_credential_type');
      const minted = await keys.mint(ctx.state.auth, mintOptionsFromBody(await readKeysBody(ctx, bodyLimit)), requestInfoOf(ctx));
      ctx.status = 201;
      ctx.set('cache-control', 'no-store');
      ctx.body = minted;
    }),
  );

  router.get(
    '/keys',
    route(async (ctx) => {
      ctx.set('cache-control', 'no-store');
      ctx.body = { keys: await keys.list(ctx.state.auth) };
    }),
  );

  router.get(
    '/keys/events',
    route(async (ctx) => {
      const { cursor, limit } = ctx.query;
      ctx.set('cache-control', 'no-store');
      ctx.body = await keys.events(ctx.state.auth, { cursor, limit });
    }),
  );
  router.all('/keys/events', methodNotAllowed(['GET']));

  router.delete(
    '/keys/:id',
    route(async (ctx) => {
      await keys.revoke(ctx.state.auth, ctx.params['id'] ?? '', requestInfoOf(ctx));
      ctx.status = 204;
    }),
  );

  router.all('/keys', methodNotAllowed(['GET', 'POST']));
  router.all('/keys/:id', methodNotAllowed(['DELETE']));
  router.all(
    KEYS_AND_BELOW,
    route(async () => {
      throw new NotFoundError('not found');
    }),
  );

  return router;
}
