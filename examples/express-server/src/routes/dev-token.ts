import { Router } from 'express';
import { z } from 'zod';
import type { RouteContext } from '../app-deps.js';
import type { DevIdentityProvider } from '@drops/auth/testing';
import { badRequest, methodNotAllowed, notFound } from '../http/http-error.js';
import { smallJson } from '../http/read-body.js';
import { devAccountOf } from '../identity/issuer-accounts.js';

const body = z
  .strictObject({
    name: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/)
      .optional(),
  })
  .optional();

/**
 * `/dev`, only with the development identity provider (never in production):
 * `POST /dev/token` `{"name": "alice"}` -> `200 {"idToken": "…", "expiresIn": 3600, "accountId": "dev:alice"}`.
 * The token is an RS256 ID token for the subject `name` (default `dev-user`), verified like any other;
 * its account is `dev:<name>`, never a real provider's (identity/issuer-accounts.ts).
 */
export function devTokenRoutes(_ctx: RouteContext, dev: DevIdentityProvider): Router {
  const router = Router();
  router
    .route('/token')
    .post(smallJson(), (req, res) => {
      const parsed = body.safeParse(req.body);
      if (!parsed.success) throw badRequest('send {"name": "alice"}: 1 to 64 letters, digits, ".", "_" or "-"');
      const name = parsed.data?.name ?? 'dev-user';
      const { idToken, expiresIn } = dev.issueIdToken(name);
      res.set('cache-control', 'no-store').json({ idToken, expiresIn, accountId: devAccountOf(name) });
    })
    .all((_req, _res, next) => next(methodNotAllowed('POST')));
  router.use((_req, _res, next) => next(notFound()));
  return router;
}
