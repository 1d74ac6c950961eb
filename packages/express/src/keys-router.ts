import {
  DEFAULT_KEYS_BODY_LIMIT,
  MethodNotAllowedError,
  NotFoundError,
  UnauthenticatedError,
  type Authenticator,
  type KeyManager,
} from '@drops/auth';
import { Router, type RequestHandler } from 'express';
import { requireAuth } from './auth-middleware.js';
import { principalOf } from './principal-of.js';
import { readKeysBody } from './read-json-body.js';

/** Options of `keysRouter()`. */
export interface KeysRouterOptions {
  /** Largest `POST /keys` body read, in bytes; over it a 413. Default 16 384. */
  bodyLimit?: number;
}

const methodNotAllowed =
  (...allow: string[]): RequestHandler =>
  (_req, _res, next) =>
    next(new MethodNotAllowedError(allow));

/**
 * The key routes, to mount at `/keys`:
 *
 * - `POST /keys`: ID token only (an API key gets the uniform 401). Optional JSON body
 *   `{"name": "ci-main"}`; anything else is a 400. Answers `201 {apiKey, id, prefix, name, createdAt}`:
 *   the only time the secret is sent.
 * - `GET /keys`: `200 {"keys": [{id, prefix, name, createdAt, lastUsedAt}]}`, newest first.
 * - `DELETE /keys/:id`: `204`; `404` when the account has no active key with that id; `400` when
 *   the id is not 64 lowercase hex.
 *
 * Authentication runs for every method and path under the mount point before any routing, so
 * without a valid credential the answer is the uniform 401, never a 404 or 405. Responses carry
 * `Cache-Control: no-store`. Errors go to `next(err)`; mount `errorHandler()` after.
 *
 * @example
 * ```ts
 * app.use('/keys', keysRouter(authenticator, createKeyManager({ keyStore })));
 * app.use(errorHandler());
 * ```
 */
export function keysRouter(authenticator: Authenticator, keys: KeyManager, options: KeysRouterOptions = {}): Router {
  if (keys === null || typeof keys !== 'object' || typeof keys.mint !== 'function') {
    throw new TypeError('keysRouter: keys must come from createKeyManager()');
  }
  if (options === null || typeof options !== 'object') throw new TypeError('keysRouter: options must be an object');
  const bodyLimit = options.bodyLimit ?? DEFAULT_KEYS_BODY_LIMIT;
  if (!Number.isSafeInteger(bodyLimit) || bodyLimit < 1) {
    throw new TypeError('keysRouter: bodyLimit must be a positive integer');
  }

  const router = Router();
  router.use(requireAuth(authenticator), (_req, res, next) => {
    res.setHeader('cache-control', 'no-store');
    next();
  });

  router
    .route('/')
    .post(async (req, res) => {
      const principal = principalOf(req);
      // Refuse an API key before reading a byte of the body.
      if (principal.credential !== 'id_token') throw new UnauthenticatedError('wrong_credential_type');
      const body = await readKeysBody(req, bodyLimit);
      res.status(201).json(await keys.mint(principal, body));
    })
    .get(async (req, res) => {
      res.status(200).json({ keys: await keys.list(principalOf(req)) });
    })
    .all(methodNotAllowed('GET', 'POST'));

  router
    .route('/:id')
    .delete(async (req, res) => {
      await keys.revoke(principalOf(req), req.params['id'] ?? '');
      res.status(204).end();
    })
    .all(methodNotAllowed('DELETE'));

  router.use((_req, _res, next) => next(new NotFoundError('not found')));
  return router;
}
