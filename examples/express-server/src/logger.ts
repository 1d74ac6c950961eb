import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';

/**
 * Log paths never written: credentials travel in these headers. API keys and ID tokens appear
 * nowhere else in what is logged (bodies are not logged; a key's id and prefix are fine).
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/** Creates the process logger: JSON lines (or pretty in a dev terminal), credentials redacted. */
export function createLogger(
  options: { level: string; format?: 'json' | 'pretty' },
  destination?: DestinationStream,
): Logger {
  const base = { level: options.level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  if (destination !== undefined) return pino(base, destination);
  if (options.format === 'pretty') {
    return pino({ ...base, transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l' } } });
  }
  return pino(base);
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Request headers worth logging; any other header (where a misplaced secret might sit) is left out. */
const LOGGED_HEADERS = ['host', 'user-agent', 'content-type', 'content-length', 'content-encoding', 'x-forwarded-for', 'authorization'];

// Shapes of credentials, scrubbed from anything logged from the URL.
const SECRET_SHAPES = /hp_[A-Za-z0-9_-]{20,}|eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.?[A-Za-z0-9_-]*/g;

// The same shapes, to test a single value (no `g` flag: no `lastIndex` state between calls).
const SECRET_SHAPE = new RegExp(SECRET_SHAPES.source);

/** Replaces anything shaped like an API key or a JWT with `[redacted]`. */
export function scrubSecrets(value: string): string {
  return value.replace(SECRET_SHAPES, '[redacted]');
}

interface SerializedRequest {
  id: unknown;
  method: string;
  url: string;
  headers: Record<string, unknown>;
  remoteAddress?: string;
}

function serializeRequest(req: SerializedRequest): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  for (const name of LOGGED_HEADERS) {
    const value = req.headers[name];
    if (value === undefined) continue;
    // A client may paste a credential into any header (a user agent, a forwarded-for); scrub them all.
    headers[name] = typeof value === 'string' ? scrubSecrets(value) : Array.isArray(value) ? value.map((v) => scrubSecrets(String(v))) : value;
  }
  return { id: req.id, method: req.method, url: scrubSecrets(req.url), headers, remoteAddress: req.remoteAddress };
}

/**
 * The caller's `X-Request-Id` when it is sane, else a new UUID. An id the scrubber would redact (a
 * credential pasted or injected there) is refused: it would be echoed in the response and written
 * to every log line of the request.
 */
function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) && !SECRET_SHAPE.test(given) ? given : randomUUID();
  res.setHeader('x-request-id', id);
  return id;
}

type RequestLogger = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * One log line per request with a request id: the caller's `X-Request-Id` when it is sane, a new
 * UUID otherwise, echoed in the response. Authentication refusals add their (server-side only)
 * reason, set by the error handler in `res.locals.authFailure`.
 *
 * When the level leaves out `info` (e.g. `LOG_LEVEL=warn` in production), no access line would be
 * written anyway: the request id is still set and echoed, and `req.log` (a child logger bound to
 * it) is still there for warnings and errors, without pino-http's per-request work, which a CPU
 * profile showed as the largest cost of a request after Express.
 */
export function requestLogger(logger: Logger): RequestLogger {
  if (!logger.isLevelEnabled('info')) {
    return (req, res, next) => {
      const id = requestIdOf(req, res);
      req.id = id;
      req.log = logger.child({ req: { id, method: req.method, url: scrubSecrets(req.url ?? '') } });
      next();
    };
  }
  return accessLogger(logger);
}

function accessLogger(logger: Logger): HttpLogger {
  return pinoHttp({
    logger,
    serializers: { req: serializeRequest },
    genReqId: requestIdOf,
    customLogLevel(_req, res, err) {
      if (err !== undefined || res.statusCode >= 500) return 'error';
      return 'info';
    },
    customProps(_req, res) {
      const failure = (res as ServerResponse & { locals?: Record<string, unknown> }).locals?.['authFailure'];
      return failure === undefined ? {} : { auth: failure };
    },
  });
}
