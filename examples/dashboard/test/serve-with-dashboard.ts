import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { DashboardConfig } from '../src/dashboard-config.js';
import { dashboardHeaders } from '../src/dashboard-headers.js';
import { dashboardStaticDir } from '../src/static-dir.js';

type Handler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => void;
interface JsonResponse {
  set(name: string, value: string): { json(body: unknown): void };
}
interface ExpressApp extends Handler {
  get(path: string, handler: (req: unknown, res: JsonResponse) => void): void;
  use(...handlers: Array<string | Handler>): void;
}
interface ExpressModule {
  (): ExpressApp;
  static(root: string, options: { setHeaders(res: ServerResponse): void }): Handler;
}

// The reference server's own Express (this package does not depend on it).
const express = createRequire(new URL('../../express-server/package.json', import.meta.url))('express') as ExpressModule;

/**
 * The wiring the reference server needs, in front of its app: `config.json`, then the static
 * page at `/dashboard`, then the API. Listens on a random loopback port.
 */
export async function serveWithDashboard(
  api: Handler,
  config: DashboardConfig,
): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.get('/dashboard/config.json', (_req, res) => res.set('cache-control', 'no-store').json(config));
  const headers = dashboardHeaders(config);
  app.use(
    '/dashboard',
    express.static(dashboardStaticDir(), {
      setHeaders: (res) => {
        for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      },
    }),
  );
  app.use(api);
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
