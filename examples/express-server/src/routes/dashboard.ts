import { dashboardHeaders, dashboardPage, dashboardStaticDir, type DashboardConfig } from '@drops/example-dashboard';
import express, { Router, type RequestHandler } from 'express';

/**
 * The dashboard (examples/dashboard) at `/dashboard/`: the page with a fresh script nonce per
 * response (its CSP runs nothing else, not even a drop of this origin), its static files with the
 * framing and content-security headers the page asks for, and `config.json` telling it how
 * people sign in. The page calls the API on this same origin with the ID token it holds in memory.
 */
export function dashboardRoutes(config: DashboardConfig): Router {
  const headers = dashboardHeaders(config);
  const router = Router();
  const page: RequestHandler = (req, res, next) => {
    // `/dashboard` without the slash: express.static below redirects it, so relative URLs resolve.
    if (req.path === '/' && !req.originalUrl.split('?')[0]!.endsWith('/')) {
      next();
      return;
    }
    const { html, headers: pageHeaders } = dashboardPage(config);
    res.set(pageHeaders).set('cache-control', 'no-store').type('html').send(html);
  };
  router.get(['/', '/index.html'], page);
  router.get('/config.json', (_req, res) => {
    res.set('cache-control', 'no-store').json(config);
  });
  router.use(
    express.static(dashboardStaticDir(), {
      index: false,
      setHeaders: (res) => {
        for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      },
    }),
  );
  return router;
}
