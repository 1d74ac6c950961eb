import { Router } from 'express';
import type { RouteContext } from '../app-deps.js';

/** How long `/healthz` waits for the database before calling it unreachable. */
export const HEALTH_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `GET /healthz`, no credential: `200 {"status": "ok"}` when the database answers and API keys can
 * be checked; `503 {"error": …}` with `Retry-After` while the database cannot be reached, the key
 * store holds no lease (starting, or not hearing announcements: docs/revocation.md), or the server
 * is shutting down.
 */
export function healthzRoutes(ctx: RouteContext): Router {
  const router = Router();
  router.get('/', async (_req, res) => {
    res.set('cache-control', 'no-store');
    if (ctx.lifecycle.shuttingDown) {
      res.status(503).set('retry-after', '5').json({ error: 'shutting down' });
      return;
    }
    try {
      await withTimeout(ctx.db.query('select 1'), HEALTH_TIMEOUT_MS);
    } catch (error) {
      ctx.logger.warn({ err: error }, 'health check: database unreachable');
      res.status(503).set('retry-after', '5').json({ error: 'database unreachable' });
      return;
    }
    if (ctx.answeringKeys?.() === false) {
      res.status(503).set('retry-after', '5').json({ error: 'API keys cannot be checked: no cache lease' });
      return;
    }
    res.json({ status: 'ok' });
  });
  return router;
}
