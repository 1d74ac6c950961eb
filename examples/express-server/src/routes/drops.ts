import { principalOf } from '@drops/auth-express';
import { Router } from 'express';
import type { RouteContext } from '../app-deps.js';
import { methodNotAllowed, notFound } from '../http/http-error.js';
import { baseUrlOf, dropJson } from './drop-json.js';

/**
 * `/drops` (mounted behind `requireAuth()`): `GET /drops` -> `200 {"drops": [...]}`, the caller's
 * drops newest first. Anonymous drops belong to nobody and are never listed.
 */
export function dropsRoutes(ctx: RouteContext): Router {
  const router = Router();
  router
    .route('/')
    .get(async (req, res) => {
      const list = await ctx.drops.listByOwner(principalOf(req).accountId);
      const base = baseUrlOf(req, ctx.config);
      res.json({ drops: list.map((d) => dropJson(d, base)) });
    })
    .all((_req, _res, next) => next(methodNotAllowed('GET')));
  router.use((_req, _res, next) => next(notFound()));
  return router;
}
