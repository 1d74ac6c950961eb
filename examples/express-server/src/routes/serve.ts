import { Router, type Response } from 'express';
import type { RouteContext } from '../app-deps.js';
import type { DropContent } from '../db/drops-repository.js';
import { notFound } from '../http/http-error.js';
import { NAME_PATTERN } from '../slug.js';

function serve(res: Response, drop: DropContent): void {
  // setHeader, not res.set: the content type goes out exactly as it was deployed.
  // The sandbox, nosniff and resource policy are already set (user-content-headers.ts).
  res.setHeader('content-type', drop.contentType);
  res.setHeader('cache-control', 'no-cache');
  res.setHeader('last-modified', drop.updatedAt.toUTCString());
  res.status(200).send(drop.content);
}

/**
 * Serving, no credential: `GET /d/:slug` answers a live drop's content with its content type;
 * `GET /v/:name` the drop a vanity name points at. Unknown or expired is a `404`.
 */
export function serveRoutes(ctx: RouteContext): Router {
  const router = Router();
  router.get('/d/:slug', async (req, res) => {
    const slug = req.params['slug'] ?? '';
    const drop = NAME_PATTERN.test(slug) ? await ctx.drops.findLive(slug, new Date(ctx.clock())) : null;
    if (drop === null) throw notFound('no such drop');
    serve(res, drop);
  });
  router.get('/v/:name', async (req, res) => {
    const name = req.params['name'] ?? '';
    const slug = NAME_PATTERN.test(name) ? await ctx.vanity.resolve(name) : null;
    const drop = slug === null ? null : await ctx.drops.findLive(slug, new Date(ctx.clock()));
    if (drop === null) throw notFound('no such vanity name');
    serve(res, drop);
  });
  return router;
}
