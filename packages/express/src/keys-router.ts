import {
  NotFoundError,
  UnauthenticatedError,
  type Authenticator,
  type KeyManager,
} from '@drops/auth';
import { DEFAULT_KEYS_BODY_LIMIT, mintOptionsFromBody } from '@drops/auth/internal';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { authMiddleware } from './auth-middleware.js';
import { ANSWER_DIRECTLY, fail, type ErrorMode } from './error-mode.js';
import { principalOf } from './principal-of.js';
import { readKeysBody } from './read-json-body.js';
import { methodNotAllowed, routeHandler } from './route-handler.js';
import { requestInfoOf } from './request-info.js';

/** Options of `keysRouter()`. */
export interface KeysRouterOptions {
  /** Largest `POST /keys` body read, in bytes; over it a 413. Default 16 384. */
  bodyLimit?: number;
}

/**
 * The key routes, to mount at `/keys`:
 *
 * - `POST /keys`: ID token only (an API key gets the uniform 401). Optional JSON body
 *   `{"name": "ci-main"}`; anything else is a 400. Answers `201 {apiKey, id, prefix, name, createdAt}`:
 *   the only time the secret is sent.
 * - `GET /keys`: `200 {"keys": [{id, prefix, name, createdAt, lastUsedAt}]}`, newest first.
 * - `GET /keys/events?cursor=&limit=`: `200 {"events": [...], "next": <cursor or null>}`, the
 *   account's key events (mints, revocations, first uses) newest first; `limit` 1 to 100
 *   (default 50), else 400.
 * - `DELETE /keys/:id`: `204`; `404` when the account has no active key with that id; `400` when
 *   the id is not 64 lowercase hex.
 *
 * Authentication runs for every method and path under the mount point before any routing, so
 * without a valid credential the answer is the uniform 401, never a 404 or 405. Mints and
 * revocations are key events with the client's `req.ip` and `User-Agent`. Responses carry
 * `Cache-Control: no-store`. Works on Express 4 and 5: every failure is answered (or, through
 * `dropsAuth()` with its `errorHandler()`, passed to `next(err)`), never left as a rejected promise.
 *
 * @example
 * ```ts
 * app.use('/keys', keysRouter(authenticator, createKeyManager({ keyStore })));
 * ```
 */
export function keysRouter(authenticator: Authenticator, keys: KeyManager, options: KeysRouterOptions = {}): Router {
  return createKeysRouter(authenticator, keys, options, ANSWER_DIRECTLY);
}

/** {@link keysRouter} with the error mode of its `dropsAuth()`. @internal */
export function createKeysRouter(
  authenticator: Authenticator,
  keys: KeyManager,
  options: KeysRouterOptions,
  mode: Readonly<ErrorMode>,
): Router {
  if (keys === null || typeof keys !== 'object' || typeof keys.mint !== 'function') {
    throw new TypeError('keysRouter: keys must come from createKeyManager()');
  }
  if (options === null || typeof options !== 'object') throw new TypeError('keysRouter: options must be an object');
  const bodyLimit = options.bodyLimit ?? DEFAULT_KEYS_BODY_LIMIT;
  if (!Number.isSafeInteger(bodyLimit) || bodyLimit < 1) {
    throw new TypeError('keysRouter: bodyLimit must be a positive integer');
  }

  const route = (handler: (req: Request, res: Response) => Promise<void>): RequestHandler => routeHandler(mode, handler);

  const router = Router();
  router.use(authMiddleware('requireAuth', authenticator, undefined, mode));

  router
    .route('/')
    .post(
      route(async (req, res) => {
        const principal = principalOf(req);
        // Refuse an API key before reading a byte of the body (and before setting any header).
        if (principal.credential !== 'id_token') throw new UnauthenticatedError('wrong_credential_type');
        const body = await readKeysBody(req, bodyLimit);
        const minted = await keys.mint(principal, mintOptionsFromBody(body), requestInfoOf(req));
        res.setHeader('cache-control', 'no-store');
        res.status(201).json(minted);
      }),
    )
    .get(
      route(async (req, res) => {
        const listed = await keys.list(principalOf(req));
        res.setHeader('cache-control', 'no-store');
        res.status(200).json({ keys: listed });
      }),
    )
    .all(methodNotAllowed(mode, 'GET', 'POST'));

  router
    .route('/events')
    .get(
      route(async (req, res) => {
        const { cursor, limit } = req.query;
        const page = await keys.events(principalOf(req), { cursor, limit });
        res.setHeader('cache-control', 'no-store');
        res.status(200).json(page);
      }),
    )
    .all(methodNotAllowed(mode, 'GET'));

  router
    .route('/:id')
    .delete(
      route(async (req, res) => {
        const id: unknown = req.params['id'];
        await keys.revoke(principalOf(req), typeof id === 'string' ? id : '', requestInfoOf(req));
        res.setHeader('cache-control', 'no-store');
        res.status(204).end();
      }),
    )
    .all(methodNotAllowed(mode, 'DELETE'));

  router.use((_req, res, next) => fail(mode, res, next, new NotFoundError('not found')));
  return router;
}
