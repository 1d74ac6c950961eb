import { principalOf } from '@drops/auth-express';
import { Router } from 'express';
import type { RouteContext } from '../app-deps.js';
import { methodNotAllowed, notFound } from '../http/http-error.js';

/**
 * `/billing/*` (mounted behind `requireAuth()`): `GET /billing/plan` -> `200 {"plan": "free"}`
 * (persisted per account, `free` by default). Any other path is a `404` once authenticated.
 */
export function billingRoutes(ctx: RouteContext): Router {
  const router = Router();
  router
    .route('/plan')
    .get(async (req, res) => {
      res.json({ plan: await ctx.billing.planOf(principalOf(req).accountId) });
    })
    .all((_req, _res, next) => next(methodNotAllowed('GET')));
  router.use((_req, _res, next) => next(notFound()));
  return router;
}
