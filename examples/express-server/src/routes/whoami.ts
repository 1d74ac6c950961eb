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
 * mounted on the app itself, right after the per-request context, as one route whose first
 * handler (for every method) is `requireAuth()`: `/whoami` itself is matched once, with no
 * mount point to strip from the URL and put back (what `app.use('/whoami', …)` costs every
 * request). A refused credential still answers as refused before routing: the route is
 * unset (`req.route`) until the credential is accepted, so the 401 is counted and logged with no route, like every other
 * family's. Longer paths go to `app.use('/whoami', …)`: authenticated, then the 404. The
 * answer goes through `sendJson`: `res.json` hashes the body for an ETag that a `no-store`
 * answer never uses.
 */
export function mountWhoami(app: Express, ctx: RouteContext): void {
  const requireAuth = ctx.auth.requireAuth();
  // Unset while the credential is judged (a refusal is answered from inside `requireAuth()`), set
  // again once it is accepted.
  const refusedBeforeRouting: RequestHandler = (req, res, next) => {
    const route: unknown = req.route;
    req.route = undefined;
    requireAuth(req, res, (err?: unknown) => {
      if (err === undefined) req.route = route;
      next(err);
    });
  };
  app
    .route('/whoami')
    .all(refusedBeforeRouting)
    .get(whoami)
    .all((_req, _res, next) => next(methodNotAllowed('GET')));
  app.use('/whoami', requireAuth, (_req, _res, next) => next(notFound()));
}
