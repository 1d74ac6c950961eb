import { UnauthenticatedError } from '@drops/auth';
import { principalOf } from '@drops/auth-express';
import { Router, type RequestHandler } from 'express';
import type { RouteContext } from '../app-deps.js';
import { badRequest, conflict, HttpError, methodNotAllowed, notFound } from '../http/http-error.js';
import { contentTypeOf, rawContent } from '../http/read-body.js';
import { NAME_PATTERN } from '../slug.js';
import { anonymousDeployLimiter } from './anonymous-deploy-limiter.js';
import { baseUrlOf, deployedJson, dropJson } from './drop-json.js';

/** Anonymous drops live this long. */
export const ANONYMOUS_DROP_TTL_MS = 7 * 24 * 60 * 60 * 1000;

function nameParam(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || !NAME_PATTERN.test(value)) {
    throw badRequest('name must be 1 to 63 lowercase letters, digits or inner hyphens');
  }
  return value;
}

/**
 * `/deploy`: `POST /deploy` takes no credential, an API key or an ID token; everything under
 * `/deploy/…` needs one, checked before routing.
 *
 * - `POST /deploy[?name=slug]`: the body is the content (any type) -> `201 {slug, url, owner,
 *   createdAt, expiresAt}`. Anonymous: `owner: null`, expires in 7 days, rate limited per
 *   address; `?name=` needs a credential (the uniform 401 without), `409` when taken.
 * - `POST /deploy/:slug`: appends the body to a drop the caller owns -> `200`; `404` otherwise;
 *   `413` past the drop size limit.
 */
export function deployRoutes(ctx: RouteContext): Router {
  const { auth, drops, config, clock } = ctx;
  const router = Router();
  const optional = auth.optionalAuth();
  const required = auth.requireAuth();
  router.use((req, res, next) => (req.path === '/' ? optional : required)(req, res, next));

  const refuseAnonymousName: RequestHandler = (req, _res, next) => {
    // Spec: `name` without a credential is the standard 401, before anything else happens.
    if (req.auth == null && req.query['name'] !== undefined) next(new UnauthenticatedError('missing', '?name= needs a credential'));
    else next();
  };

  router
    .route('/')
    .post(refuseAnonymousName, anonymousDeployLimiter(ctx), ...rawContent(config.maxBodyBytes), async (req, res) => {
      const slug = nameParam(req.query['name']);
      const contentType = contentTypeOf(req.get('content-type'));
      if (contentType === null) throw badRequest('content-type is not a valid media type');
      const now = new Date(clock());
      const owner = req.auth?.accountId ?? null;
      const drop = await drops.create({
        slug,
        owner,
        content: req.body as Buffer,
        contentType,
        now,
        expiresAt: owner === null ? new Date(now.getTime() + ANONYMOUS_DROP_TTL_MS) : null,
      });
      if (drop === null) throw conflict(`the name "${slug}" is taken`);
      const body = deployedJson(drop, baseUrlOf(req, config));
      res
        .status(201)
        .location(body['url'] as string)
        .json(body);
    })
    .all((_req, _res, next) => next(methodNotAllowed('POST')));

  router
    .route('/:slug')
    .post(...rawContent(config.maxBodyBytes), async (req, res) => {
      const { accountId } = principalOf(req);
      const slug = req.params['slug'] ?? '';
      if (!NAME_PATTERN.test(slug)) throw notFound('no drop of yours with that slug');
      const result = await drops.append({
        slug,
        owner: accountId,
        content: req.body as Buffer,
        now: new Date(clock()),
        maxSize: config.maxDropBytes,
      });
      if (result === 'not_found') throw notFound('no drop of yours with that slug');
      if (result === 'too_large') throw new HttpError(413, `a drop must be at most ${config.maxDropBytes} bytes`);
      res.status(200).json(dropJson(result, baseUrlOf(req, config)));
    })
    .all((_req, _res, next) => next(methodNotAllowed('POST')));

  router.use((_req, _res, next) => next(notFound()));
  return router;
}
