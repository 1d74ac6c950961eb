import { inProcessRateLimitStore } from '@drops/auth';
import { dropsAuth } from '@drops/auth-express';
import express, { type Express } from 'express';
import type { AppDeps, RouteContext } from './app-deps.js';
import { BillingRepository } from './db/billing-repository.js';
import { DropsRepository } from './db/drops-repository.js';
import { guardAvailability } from './db/unavailable-database.js';
import { VanityRepository } from './db/vanity-repository.js';
import { finalErrorHandler } from './http/final-error-handler.js';
import { notFound } from './http/http-error.js';
import { metricsRoute } from './metrics/metrics-endpoints.js';
import { billingRoutes } from './routes/billing.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { deployRoutes } from './routes/deploy.js';
import { devTokenRoutes } from './routes/dev-token.js';
import { dropsRoutes } from './routes/drops.js';
import { healthzRoutes } from './routes/healthz.js';
import { keysRoutes } from './routes/keys.js';
import { leakedKeysRoutes } from './routes/leaked-keys.js';
import { serveRoutes } from './routes/serve.js';
import { vanityRoutes } from './routes/vanity.js';
import { mountSessions } from './routes/sessions.js';
import { mountWhoami } from './routes/whoami.js';
import { useRequestContext } from './request-context.js';
import { dropsHostOnly } from './user-content/drops-host-only.js';
import { redirectToDropsOrigin } from './user-content/redirect-to-drops-origin.js';
import { userContentHeaders } from './user-content/user-content-headers.js';

/**
 * Builds the reference server's Express app. Each account route family is mounted behind its
 * authentication, so a request without a valid credential anywhere under `/keys`, `/drops`,
 * `/vanity`, `/billing`, `/whoami`, `/sessions` or `/deploy/…` is the uniform 401 before any routing (never a
 * 404 or 405 that tells what exists). The leaked-key routes (`POST /credentials/revoke`,
 * `POST /secret-scanning/github`) take no credential: holding a key is the right to kill it.
 */
export function createApp(deps: AppDeps): Express {
  const auth = dropsAuth({
    authenticator: deps.authenticator,
    keys: deps.keys,
    onError(err, req) {
      const reason = (err as { reason?: unknown }).reason;
      // Server-side only: why a credential was refused, or which dependency failed.
      req.res!.locals['authFailure'] = { code: err.code, ...(reason !== undefined ? { reason } : {}) };
      if (err.status >= 500) req.log?.warn({ err: err.cause ?? err }, 'authentication unavailable');
    },
  });
  const db = guardAvailability(deps.db);
  const ctx: RouteContext = {
    ...deps,
    rateLimitStore: deps.rateLimitStore ?? inProcessRateLimitStore({ clock: deps.clock }),
    db,
    auth,
    drops: new DropsRepository(db),
    vanity: new VanityRepository(db),
    billing: new BillingRepository(db),
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy);
  // Request id, shutdown, access line and request metrics: one middleware, the only one every
  // request passes through.
  useRequestContext(app, { logger: deps.logger, metrics: deps.metrics ?? null, lifecycle: deps.lifecycle });

  // User content never runs with the API's origin: on the drops host (config.dropsOrigin) only drops are
  // served; anywhere, every answer under /d/ and /v/ is sandboxed (an opaque origin).
  const { dropsOrigin } = deps.config;
  if (dropsOrigin !== null) app.use(dropsHostOnly(dropsOrigin, serveRoutes(ctx)));
  // The hottest route first: a request walks every layer mounted before its own (see whoami.ts).
  mountWhoami(app, ctx);
  // Only for the METRICS_TOKEN bearer; anyone else gets the 404 of any unknown path.
  if (deps.metrics && deps.config.metrics.token !== null) app.get('/metrics', metricsRoute(deps.metrics, deps.config.metrics.token));
  app.use(['/d', '/v'], userContentHeaders());

  app.use('/healthz', healthzRoutes(ctx));
  app.use('/dashboard', dashboardRoutes(deps.config.dashboard));
  if (deps.devIdentity !== null) app.use('/dev', devTokenRoutes(ctx, deps.devIdentity));
  app.use(leakedKeysRoutes(ctx));
  app.use('/keys', keysRoutes(ctx));
  mountSessions(app, ctx);
  app.use('/deploy', deployRoutes(ctx));
  app.use('/drops', auth.requireAuth(), dropsRoutes(ctx));
  app.use('/vanity', auth.requireAuth(), vanityRoutes(ctx));
  app.use('/billing', auth.requireAuth(), billingRoutes(ctx));
  app.use(dropsOrigin === null ? serveRoutes(ctx) : redirectToDropsOrigin(dropsOrigin));
  app.use((_req, _res, next) => next(notFound()));

  // Body parsers run inside the routes, after drops has judged the credential, except on the
  // routes that take none: a body they cannot parse there is the app's own 400, never the 401.
  app.use(auth.errorHandler({ publicPaths: ['/credentials/revoke', '/secret-scanning/github', '/dev/'] }));
  app.use(finalErrorHandler());
  return app;
}
