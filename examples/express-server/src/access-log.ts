import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { pino, type Logger } from 'pino';
import { scrubSecrets } from './logger.js';
import type { ServerMetrics } from './metrics/server-metrics.js';
import { requestIdOf } from './request-id.js';

/** What routes may log about a request: each line carries the request's id, method and scrubbed URL. */
export interface RequestLog {
  error(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

declare module 'node:http' {
  interface IncomingMessage {
    /** The request id, echoed as `X-Request-Id` (see `requestIdOf`). */
    id: string;
    /** A logger for this request; see {@link RequestLog}. */
    log: RequestLog;
  }
}

/** Request headers worth logging; any other header (where a misplaced secret might sit) is left out. */
const LOGGED_HEADERS = ['host', 'user-agent', 'content-type', 'content-length', 'content-encoding', 'x-forwarded-for'] as const;

/** Made only when a route logs something: a child logger per request was a cost on every request. */
class LazyRequestLog implements RequestLog {
  #child: Logger | undefined;

  constructor(
    private readonly root: Logger,
    private readonly req: IncomingMessage,
  ) {}

  get #logger(): Logger {
    const { req } = this;
    this.#child ??= this.root.child({ req: { id: req.id, method: req.method, url: scrubSecrets((req as Request).originalUrl ?? req.url ?? '') } });
    return this.#child;
  }

  error(obj: object, msg?: string): void {
    this.#logger.error(obj, msg);
  }
  warn(obj: object, msg?: string): void {
    this.#logger.warn(obj, msg);
  }
  info(obj: object, msg?: string): void {
    this.#logger.info(obj, msg);
  }
  debug(obj: object, msg?: string): void {
    this.#logger.debug(obj, msg);
  }
}

function loggedHeaders(req: IncomingMessage): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  for (const name of LOGGED_HEADERS) {
    const value = req.headers[name];
    if (value === undefined) continue;
    // A client may paste a credential into any header (a user agent, a forwarded-for); scrub them all.
    headers[name] = typeof value === 'string' ? scrubSecrets(value) : value;
  }
  if (req.headers.authorization !== undefined) headers['authorization'] = '[redacted]';
  return headers;
}

const ROUTE = Symbol('route');
const ROUTE_BASE = Symbol('routeBase');
type RoutedRequest = IncomingMessage & { baseUrl?: string; [ROUTE]?: { path?: unknown }; [ROUTE_BASE]?: string };
const watchedPrototypes = new WeakSet<object>();

/**
 * Express sets `req.route` when a route matches, and resets `req.baseUrl` (the mount point) when
 * an error leaves a router: by the time an error handler answers, `/keys/:id` would read as `/:id`.
 * So the full pattern is taken when the route is set, through an accessor on the app's request
 * prototype (installed once per app, `req.route` itself unchanged).
 */
function watchRoutes(req: IncomingMessage): void {
  const prototype = Object.getPrototypeOf(req) as object;
  if (watchedPrototypes.has(prototype)) return;
  watchedPrototypes.add(prototype);
  Object.defineProperty(prototype, 'route', {
    configurable: true,
    get(this: RoutedRequest): unknown {
      return this[ROUTE];
    },
    set(this: RoutedRequest, route: { path?: unknown } | undefined) {
      this[ROUTE] = route;
      this[ROUTE_BASE] = this.baseUrl;
    },
  });
}

/**
 * The route pattern that answered (`/keys/:id`), or `null` when no route did (a 404, or a refusal
 * answered before routing such as an account route family's 401). Built from the route's pattern
 * and the mount point it matched (this app's mount points are literal, so that is the declared
 * one up to case), never from the rest of the request's path: no client input, bounded labels.
 */
function routeOf(req: IncomingMessage): string | null {
  const path = (req as RoutedRequest)[ROUTE]?.path;
  if (typeof path !== 'string') return null;
  // Routing ignores case (`/WhoAmI` is answered by `/whoami`): the mount point is lower-cased.
  const base = ((req as RoutedRequest)[ROUTE_BASE] ?? '').toLowerCase();
  return base !== '' && path === '/' ? base : base + path;
}

/**
 * The logger access lines go through: the process logger's level and destination, without its
 * redaction paths. An access line is built from an allow-list with `authorization` already
 * `[redacted]`, so redaction (a clone of the line's `req` per request) would change nothing.
 */
function accessLineLogger(logger: Logger): Logger {
  const destination = (logger as unknown as Record<symbol, pino.DestinationStream>)[pino.symbols.streamSym];
  return destination === undefined ? logger : pino({ level: logger.level }, destination);
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000;

/**
 * The access log, request ids and request counts, from one `res.on('close')` per request:
 *
 * - every request gets its id (`requestIdOf`), echoed as `X-Request-Id`, and `req.log`;
 * - at `info`, one JSON line per request, written by pino directly (no child logger, no
 *   pino-http): `req` {id, method, url (scrubbed), route, headers (a safe few, scrubbed;
 *   `authorization` only as `[redacted]`), remoteAddress}, `res.statusCode`, `responseTime` (ms),
 *   `credential` and `keyId` when authenticated, `auth` (why a credential was refused, server side
 *   only, from `res.locals.authFailure`). 5xx lines are at `error`, aborted requests at `warn`;
 * - with `metrics`, each response counted in `drops_http_requests_total`.
 */
export function requestLogger(logger: Logger, options: { metrics?: ServerMetrics | null } = {}): RequestHandler {
  const writeLines = logger.isLevelEnabled('info');
  const lines = writeLines ? accessLineLogger(logger) : logger;
  const metrics = options.metrics ?? null;
  const watch = writeLines || metrics !== null;

  function finished(req: Request, res: Response, startedAt: number): void {
    const status = res.statusCode;
    const route = routeOf(req);
    metrics?.countRequest(req.method, route ?? 'none', status);
    if (!writeLines) return;
    const principal = req.auth;
    const failure: unknown = res.locals['authFailure'];
    const line = {
      req: {
        id: req.id,
        method: req.method,
        url: scrubSecrets(req.originalUrl),
        route,
        headers: loggedHeaders(req),
        remoteAddress: req.socket.remoteAddress,
      },
      res: { statusCode: status },
      responseTime: round(performance.now() - startedAt),
      credential: principal?.credential,
      keyId: principal?.keyId,
      auth: failure,
    };
    if (!res.writableFinished) lines.warn(line, 'request aborted');
    else if (status >= 500) lines.error(line, 'request errored');
    else lines.info(line, 'request completed');
  }

  return (req, res, next) => {
    watchRoutes(req);
    req.id = requestIdOf(req, res);
    req.log = new LazyRequestLog(logger, req);
    if (watch) {
      const startedAt = performance.now();
      res.once('close', () => finished(req, res, startedAt));
    }
    next();
  };
}
