import { principalOf } from '@drops/auth-express';
import type { Express, RequestHandler } from 'express';
import type { RouteContext } from '../app-deps.js';
import { methodNotAllowed, notFound } from '../http/http-error.js';
import { sendJson } from '../http/send-json.js';

const whoami: RequestHandler = (req, res) => {
  const principal = principalOf(req);
  res.setHeader('cache-control', 'no-store');
  sendJson(
    res,
    200,
    principal.credential === 'api_key'
      ? { accountId: principal.accountId, credential: 'api_key', keyId: principal.keyId }
      : { accountId: principal.accountId, credential: 'id_token' },
  );
};

/**
 * `GET /whoami`: `{accountId, credential, keyId?}`, so a CLI can check a key. Never echoes the
 * credential. Like every account route family, everything under `/whoami` is behind
 * `requireAuth()` (the uniform 401 before any routing); then `GET` answers, any other method is
 * a 405 and any longer path a 404.
 *
 * The most called route (every CLI run and dashboard load checks its credential), so it is
 * mounted on the app itself, right after the per-request context, and answers through
 * `sendJson`: a router of its own would be a second dispatch per request, and `res.json` hashes
 * the body for an ETag that a `no-store` answer never uses.
 */
export function mountWhoami(app: Express, ctx: RouteContext): void {
  app.use('/whoami', ctx.auth.requireAuth());
  app
    .route('/whoami')
    .get(whoami)
    .all((_req, _res, next) => next(methodNotAllowed('GET')));
  app.use('/whoami', (_req, _res, next) => next(notFound()));
}
