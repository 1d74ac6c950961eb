import { Router, type RequestHandler, type Response } from 'express';
import type { RouteContext } from '../app-deps.js';
import type { DropContent } from '../db/drops-repository.js';
import { notFound } from '../http/http-error.js';
import { NAME_PATTERN } from '../slug.js';
import { isDropsHost, type DropsOrigin } from '../user-content/drops-origin.js';
import { userContentHeaders } from '../user-content/user-content-headers.js';

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

/**
 * With `DROPS_ORIGIN`, a request to its host gets drop content and nothing else: `/d/…` and
 * `/v/…` as {@link serveRoutes}, every other path (the API, `/dashboard`, `/dev`, `/healthz`) a
 * sandboxed `404`. Requests to any other host go on to the API.
 */
export function dropsHostOnly(drops: DropsOrigin, content: Router): RequestHandler {
  const router = Router();
  router.use(userContentHeaders(), content, (_req, _res, next) => next(notFound()));
  return (req, res, next) => (isDropsHost(req, drops) ? router(req, res, next) : next());
}

/**
 * With `DROPS_ORIGIN`, `/d/:slug` and `/v/:name` on the API host answer `308` to the same path on
 * the drops origin (query kept), without looking the drop up or serving a byte of it: links
 * handed out before `DROPS_ORIGIN` was set keep working, and user content never runs on the API
 * origin. Anything that is not a well-formed slug is a `404` (nothing of the path is echoed).
 */
export function redirectToDropsOrigin(drops: DropsOrigin): Router {
  const router = Router();
  const redirect =
    (prefix: '/d/' | '/v/', param: 'slug' | 'name'): RequestHandler =>
    (req, res, next) => {
      const name = req.params[param];
      if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
        next(notFound());
        return;
      }
      const query = req.originalUrl.indexOf('?');
      res.setHeader('cache-control', 'no-cache');
      res.redirect(308, `${drops.origin}${prefix}${name}${query === -1 ? '' : req.originalUrl.slice(query)}`);
    };
  router.get('/d/:slug', redirect('/d/', 'slug'));
  router.get('/v/:name', redirect('/v/', 'name'));
  return router;
}
