import { dashboardHeaders, dashboardStaticDir, type DashboardConfig } from '@drops/example-dashboard';
import express, { Router } from 'express';

/**
 * The dashboard (examples/dashboard) at `/dashboard/`: its static files, with the framing and
 * content-security headers the page asks for, and `config.json` telling it how people sign in.
 * The page calls the API on this same origin with the ID token it holds in memory.
 */
export function dashboardRoutes(config: DashboardConfig): Router {
  const headers = dashboardHeaders(config);
  const router = Router();
  router.get('/config.json', (_req, res) => {
    res.set('cache-control', 'no-store').json(config);
  });
  router.use(
    express.static(dashboardStaticDir(), {
      setHeaders: (res) => {
        for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      },
    }),
  );
  return router;
}
