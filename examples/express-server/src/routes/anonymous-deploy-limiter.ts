import { clientSubjectOf } from '@drops/auth';
import type { RequestHandler } from 'express';
import type { RouteContext } from '../app-deps.js';
import { takeOrUnavailable } from '../rate-limits/take-or-unavailable.js';

/** The scope anonymous deploys are counted in, per client address. */
export const ANONYMOUS_DEPLOY_SCOPE = 'anonymous_deploy';

/**
 * Limits anonymous `POST /deploy` per client address (`ANON_DEPLOY_LIMIT` per
 * `ANON_DEPLOY_WINDOW_SECONDS`), IPv6 grouped by network (`IPV6_PREFIX_LENGTH`, default /64) as
 * every other limit per client address is, counted in the app's rate limit store: on PostgreSQL
 * shared by every instance. Over it, a 429 JSON error with `Retry-After`; a store that cannot
 * count, a 503. Authenticated deploys are not counted.
 */
export function anonymousDeployLimiter(deps: Pick<RouteContext, 'config' | 'rateLimitStore'>): RequestHandler {
  const { config, rateLimitStore } = deps;
  const limit = { max: config.anonymousDeployLimit, windowMs: config.anonymousDeployWindowMs };
  return (req, res, next) => {
    if (req.auth != null) return next();
    takeOrUnavailable(rateLimitStore, ANONYMOUS_DEPLOY_SCOPE, clientSubjectOf(req.ip ?? '', config.ipv6PrefixLength), limit).then(
      (waitMs) => {
        if (waitMs === 0) return next();
        res
          .status(429)
          .set('retry-after', String(Math.max(1, Math.ceil(waitMs / 1000))))
          .json({ error: 'too many anonymous deploys from this address; try again later or sign in' });
      },
      next,
    );
  };
}
