import { Router } from 'express';
import type { RouteContext } from '../app-deps.js';
import type { DevIdentityProvider } from '@drops/auth/testing';
import { badRequest, methodNotAllowed, notFound } from '../http/http-error.js';
import { smallJson } from '../http/read-body.js';
import { devAccountOf } from '../identity/issuer-accounts.js';

/**
 * `/dev`, only with the development identity provider (never in production):
 * `POST /dev/token` `{"name": "alice"}` -> `200 {"idToken": "…", "expiresIn": 3600, "accountId": "dev:alice"}`;
 * with `"authTime"` (seconds, not in the future) the token is one refreshed from that sign-in.
 * The token is an RS256 ID token for the subject `name` (default `dev-user`), verified like any other;
 * its account is `dev:<name>`, never a real provider's (identity/issuer-accounts.ts).
 */
export function devTokenRoutes(_ctx: RouteContext, dev: DevIdentityProvider): Router {
  const router = Router();
  router
    .route('/token')
    .post(smallJson(), (req, res) => {
      // The name rule and the token are the shipped provider's; the account is this server's.
      const answer = dev.answerTokenRequest(req.body);
      if (answer.status !== 200) throw badRequest(answer.body.error);
      const { idToken, expiresIn, name } = answer.body;
      res.set(answer.headers).json({ idToken, expiresIn, accountId: devAccountOf(name) });
    })
    .all((_req, _res, next) => next(methodNotAllowed('POST')));
  router.use((_req, _res, next) => next(notFound()));
  return router;
}
