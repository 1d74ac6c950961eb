import type { Express, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { Lifecycle } from './app-deps.js';
import { createAccessLog } from './access-log.js';
import type { ServerMetrics } from './metrics/server-metrics.js';
import { requestIdOf } from './request-id.js';
import { installRequestLog } from './request-log.js';
import { routeOf, watchRoutes } from './route-pattern.js';

/** What {@link useRequestContext} needs. */
export interface RequestContextOptions {
  readonly logger: Logger;
  /** Counts each response in `drops_http_requests_total`; `null` or absent when metrics are off. */
  readonly metrics?: ServerMetrics | null;
  /** While `shuttingDown`, every answer carries `Connection: close`. */
  readonly lifecycle?: Lifecycle;
}

const STARTED_AT = Symbol('startedAt');
type TimedResponse = Response & { [STARTED_AT]: number };

/** Declares the slot where a response's start time is kept (see `AppResponse`). */
export function prepareTimingSlot(res: object): void {
  (res as { [STARTED_AT]?: number })[STARTED_AT] = 0;
}

/**
 * Everything the server does for every request, as the app's first and only per-request
 * middleware (each Express layer a request walks through costs; one does it all):
 *
 * - the request id (`requestIdOf`), echoed as `X-Request-Id`, and `req.log` (made on first use);
 * - `Connection: close` while the server drains for shutdown;
 * - when the access log (`info`) or the metrics are on, the time the request took and one
 *   `close` listener, shared by every request, that writes the access line (see
 *   `createAccessLog`) and counts the response in `drops_http_requests_total`.
 *
 * The route pattern and `req.log` are accessors on the app's request prototype, installed here
 * once, not per request.
 */
export function useRequestContext(app: Express, options: RequestContextOptions): void {
  const { logger, lifecycle } = options;
  const metrics = options.metrics ?? null;
  const accessLog = createAccessLog(logger);
  watchRoutes(app.request);
  installRequestLog(app.request, logger);

  function finished(this: TimedResponse): void {
    const req = this.req;
    const route = routeOf(req);
    metrics?.countRequest(req.method, route ?? 'none', this.statusCode);
    accessLog?.(req, this, route, performance.now() - this[STARTED_AT]);
  }

  const timed = accessLog !== null || metrics !== null;
  const requestContext: RequestHandler = (req: Request, res: Response, next) => {
    req.id = requestIdOf(req, res);
    if (lifecycle?.shuttingDown === true) res.setHeader('connection', 'close');
    if (timed) {
      (res as TimedResponse)[STARTED_AT] = performance.now();
      res.on('close', finished);
    }
    next();
  };
  app.use(requestContext);
}
