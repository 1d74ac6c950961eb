import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dashboardRoutes } from '../../express-server/src/routes/dashboard.js';
import type { DashboardConfig } from '../src/dashboard-config.js';

// The reference server's own Express (this package does not depend on it).
type ExpressApp = RequestListener & { use(...handlers: unknown[]): void };
const express = createRequire(new URL('../../express-server/package.json', import.meta.url))('express') as () => ExpressApp;

/**
 * The page served with another sign-in configuration than the server under test has (Firebase,
 * or one the page cannot use), in front of that server's API: the reference server's own
 * dashboard routes, then the API. Listens on a random loopback port.
 */
export async function serveWithDashboard(api: RequestListener, config: DashboardConfig): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.use('/dashboard', dashboardRoutes(config));
  app.use(api);
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
