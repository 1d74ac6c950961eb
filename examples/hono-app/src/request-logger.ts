import type { MiddlewareHandler } from 'hono';

/**
 * The app's own access log: method, path, status, duration. It never logs headers, so neither an
 * API key nor an ID token can end up in the log.
 */
export function requestLogger(write: (line: string) => void = console.log): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    write(`${c.req.method} ${c.req.path} ${c.res.status} ${(performance.now() - started).toFixed(1)}ms`);
  };
}
