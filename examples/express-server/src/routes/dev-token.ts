import { Router } from 'express';
import { z } from 'zod';
import type { RouteContext } from '../app-deps.js';
import type { DevIdentityProvider } from '../identity/dev-identity-provider.js';
import { badRequest, methodNotAllowed, notFound } from '../http/http-error.js';
import { smallJson } from '../http/read-body.js';
import { devAccountOf } from '../identity/issuer-accounts.js';

const body = z
  .strictObject({
    name: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/)
      .optional(),
    // A token refreshed from an earlier sign-in: that sign-in's time (seconds), issued now.
    authTime: z.number().int().nonnegative().optional(),
  })
  .optional();

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
      const parsed = body.safeParse(req.body);
      const authTime = parsed.data?.authTime;
      if (!parsed.success || (authTime !== undefined && authTime * 1000 > dev.now())) {
        throw badRequest(
          'send {"name": "alice", "authTime"?: <seconds, not in the future>}: a name of 1 to 64 letters, digits, ".", "_" or "-"',
        );
      }
      const name = parsed.data?.name ?? 'dev-user';
      const { idToken, expiresIn } = dev.mintIdToken(name, authTime);
      res.set('cache-control', 'no-store').json({ idToken, expiresIn, accountId: devAccountOf(name) });
    })
    .all((_req, _res, next) => next(methodNotAllowed('POST')));
  router.use((_req, _res, next) => next(notFound()));
  return router;
}
