import { clientSubjectOf } from '@drops/auth';
import { rateLimit } from 'express-rate-limit';
import type { RequestHandler } from 'express';
import type { AppDeps } from '../app-deps.js';

/**
 * Limits anonymous `POST /deploy` per client address (express-rate-limit), IPv6 grouped by network
 * (`IPV6_PREFIX_LENGTH`, default /64) as every other limit per client address is.
 * Authenticated deploys are not counted. The count lives in this process: behind several
 * instances the effective limit is per instance (plug a shared store into `store` to change that).
 */
export function anonymousDeployLimiter(config: AppDeps['config']): RequestHandler {
  return rateLimit({
    windowMs: config.anonymousDeployWindowMs,
    limit: config.anonymousDeployLimit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    skip: (req) => req.auth != null,
    keyGenerator: (req) => clientSubjectOf(req.ip ?? '', config.ipv6PrefixLength),
    // The key above is the IPv6 grouping express-rate-limit's own check asks for.
    validate: { keyGeneratorIpFallback: false },
    handler: (_req, res, _next, options) => {
      res.status(options.statusCode).json({ error: 'too many anonymous deploys from this address; try again later or sign in' });
    },
  });
}
