import { principalOf } from '@drops/auth-express';
import { Router } from 'express';
import { z } from 'zod';
import type { RouteContext } from '../app-deps.js';
import type { VanityRecord } from '../db/vanity-repository.js';
import { badRequest, conflict, methodNotAllowed, notFound } from '../http/http-error.js';
import { smallJson } from '../http/read-body.js';
import { NAME_PATTERN } from '../slug.js';
import { baseUrlOf } from './drop-json.js';

const claimBody = z.strictObject({ slug: z.string().regex(NAME_PATTERN) });

function nameOf(value: string | undefined): string {
  if (value === undefined || !NAME_PATTERN.test(value)) {
    throw badRequest('a vanity name is 1 to 63 lowercase letters, digits or inner hyphens');
  }
  return value;
}

/**
 * `/vanity` (mounted behind `requireAuth()`): vanity names pointing at the caller's drops.
 *
 * - `GET /vanity` -> `200 {"vanity": [{name, slug, url, createdAt, updatedAt}]}`
 * - `PUT /vanity/:name` `{"slug": "…"}` -> `201` claimed, `200` re-pointed; `404` no drop of
 *   yours with that slug; `409` the name is someone else's; `400` bad name or body.
 * - `GET /vanity/:name` -> `200` one of yours, `404` otherwise.
 * - `DELETE /vanity/:name` -> `204`; `404` when you hold no such name.
 */
export function vanityRoutes(ctx: RouteContext): Router {
  const { vanity, clock, config } = ctx;
  const router = Router();
  const toJson = (record: VanityRecord, base: string): Record<string, unknown> => ({
    name: record.name,
    slug: record.slug,
    url: `${base}/v/${record.name}`,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  });

  router
    .route('/')
    .get(async (req, res) => {
      const base = baseUrlOf(req, config);
      const list = await vanity.listByAccount(principalOf(req).accountId);
      res.json({ vanity: list.map((v) => toJson(v, base)) });
    })
    .all((_req, _res, next) => next(methodNotAllowed('GET')));

  router
    .route('/:name')
    .get(async (req, res) => {
      const record = await vanity.find(principalOf(req).accountId, nameOf(req.params['name']));
      if (record === null) throw notFound('you hold no such vanity name');
      res.json(toJson(record, baseUrlOf(req, config)));
    })
    .put(smallJson(), async (req, res) => {
      const name = nameOf(req.params['name']);
      const body = claimBody.safeParse(req.body);
      if (!body.success) throw badRequest('send {"slug": "<one of your drops>"}');
      const result = await vanity.claim(principalOf(req).accountId, name, body.data.slug, new Date(clock()));
      if (result.outcome === 'no_drop') throw notFound('no drop of yours with that slug');
      if (result.outcome === 'taken') throw conflict(`the vanity name "${name}" is taken`);
      res.status(result.outcome === 'created' ? 201 : 200).json(toJson(result.record, baseUrlOf(req, config)));
    })
    .delete(async (req, res) => {
      const released = await vanity.release(principalOf(req).accountId, nameOf(req.params['name']));
      if (!released) throw notFound('you hold no such vanity name');
      res.status(204).end();
    })
    .all((_req, _res, next) => next(methodNotAllowed('GET', 'PUT', 'DELETE')));

  router.use((_req, _res, next) => next(notFound()));
  return router;
}
