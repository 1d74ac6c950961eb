import { principalOf } from '@drops/auth-express';
import { Router } from 'express';
import type { RouteContext } from '../app-deps.js';
import { methodNotAllowed, notFound } from '../http/http-error.js';

/**
 * `GET /whoami` (mounted behind `requireAuth()`): `{accountId, credential, keyId?}`, so a CLI can
 * check a key. Never echoes the credential.
 */
export function whoamiRoutes(_ctx: RouteContext): Router {
  const router = Router();
  router
    .route('/')
    .get((req, res) => {
      const principal = principalOf(req);
      res.set('cache-control', 'no-store').json(
        principal.credential === 'api_key'
          ? { accountId: principal.accountId, credential: 'api_key', keyId: principal.keyId }
          : { accountId: principal.accountId, credential: 'id_token' },
      );
    })
    .all((_req, _res, next) => next(methodNotAllowed('GET')));
  router.use((_req, _res, next) => next(notFound()));
  return router;
}
