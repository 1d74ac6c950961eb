import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import type { Logger } from 'pino';
import { scrubSecrets } from './logger.js';

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

const CHILD = Symbol('requestLog');
type LoggingRequest = IncomingMessage & { [CHILD]?: Logger };

/**
 * Defines `req.log` on the app's request prototype (`app.request`): the child logger bound to
 * the request's id, method and scrubbed URL is made the first time a route logs something, and
 * kept for the rest of the request. Most requests never log; a child logger per request was a
 * cost on every one of them.
 */
export function installRequestLog(requestPrototype: object, root: Logger): void {
  Object.defineProperty(requestPrototype, 'log', {
    configurable: true,
    get(this: LoggingRequest): RequestLog {
      let child = this[CHILD];
      if (child === undefined) {
        const url = scrubSecrets((this as Request).originalUrl ?? this.url ?? '');
        child = this[CHILD] = root.child({ req: { id: this.id, method: this.method, url } });
      }
      return child;
    },
  });
}
