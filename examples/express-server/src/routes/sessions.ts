import { principalOf } from '@drops/auth-express';
import type { Express, RequestHandler } from 'express';
import type { RouteContext } from '../app-deps.js';
import { methodNotAllowed, notFound } from '../http/http-error.js';
import { sendJson } from '../http/send-json.js';

/**
 * `DELETE /sessions` (ID token only): signs the account out everywhere. `200 {"tokensValidAfter"}`
 * once no instance accepts an ID token of the account signed in at or before it, the caller's
 * included (https://github.com/drops-dev/drops-auth/blob/main/docs/concepts.md#signing-out-everywhere).
 * Like every account route family, everything under `/sessions` is behind `requireAuth()` (an API
 * key is the uniform 401 there, before any routing); then `DELETE` answers, any other method is a
 * 405 and any longer path a 404.
 */
export function mountSessions(app: Express, ctx: RouteContext): void {
  const signOutEverywhere: RequestHandler = async (req, res) => {
    const answer = await ctx.keys.signOutEverywhere(principalOf(req), { ip: req.ip ?? null, userAgent: req.get('user-agent') ?? null });
    res.setHeader('cache-control', 'no-store');
    sendJson(res, 200, answer);
  };
  app.use('/sessions', ctx.auth.requireAuth({ accept: ['id_token'] }));
  app
    .route('/sessions')
    .delete(signOutEverywhere)
    .all((_req, _res, next) => next(methodNotAllowed('DELETE')));
  app.use('/sessions', (_req, _res, next) => next(notFound()));
}
