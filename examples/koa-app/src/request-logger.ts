import type { Middleware } from 'koa';

/**
 * The app's own access log: method, path, status, duration. It never logs headers, so neither an
 * API key nor an ID token can end up in the log.
 */
export function requestLogger(write: (line: string) => void = console.log): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const ms = (performance.now() - started).toFixed(1);
      write(`${ctx.method} ${ctx.path} ${ctx.status} ${ms}ms`);
    }
  };
}
