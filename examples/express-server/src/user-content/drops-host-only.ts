import { Router, type RequestHandler } from 'express';
import { notFound } from '../http/http-error.js';
import { isDropsHost, type DropsOrigin } from './drops-origin.js';
import { userContentHeaders } from './user-content-headers.js';

/**
 * With a drops origin set, a request to its host gets drop content and nothing else: `/d/…` and
 * `/v/…` as `content` (routes/serve.ts) answers them, every other path (the API, `/dashboard`,
 * `/dev`, `/healthz`) a sandboxed `404`. Requests to any other host go on to the API.
 */
export function dropsHostOnly(drops: DropsOrigin, content: Router): RequestHandler {
  const router = Router();
  router.use(userContentHeaders(), content, (_req, _res, next) => next(notFound()));
  return (req, res, next) => (isDropsHost(req, drops) ? router(req, res, next) : next());
}
