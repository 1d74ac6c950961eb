import { Router, type RequestHandler } from 'express';
import { notFound } from '../http/http-error.js';
import { NAME_PATTERN } from '../slug.js';
import type { DropsOrigin } from './drops-origin.js';

/**
 * With a drops origin set, `/d/:slug` and `/v/:name` on the API host answer `308` to the same path on
 * the drops origin (query kept), without looking the drop up or serving a byte of it: links
 * handed out before it was set keep working, and user content never runs on the API
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
