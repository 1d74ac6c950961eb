import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import type { AddressInfo } from 'node:net';

/** A Hono app served by Node on 127.0.0.1 at a random port, for tests over real HTTP. */
export interface TestServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts `app` with `@hono/node-server` on 127.0.0.1, port 0. Test helper; not exported from the package. */
// biome-ignore lint/suspicious/noExplicitAny: a test helper for apps of any environment, schema and base path.
export async function listen(app: Hono<any, any, any>): Promise<TestServer> {
  const server = await new Promise<ServerType>((resolve) => {
    const started: ServerType = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
