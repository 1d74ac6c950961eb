import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';

/** A Koa app listening on 127.0.0.1 at a random port, for tests over real HTTP. */
export interface TestServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts `app` on 127.0.0.1, port 0. Test helper; not exported from the package. */
// biome-ignore lint/suspicious/noExplicitAny: a test helper for apps of any state and context type.
export async function listen(app: Koa<any, any>): Promise<TestServer> {
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
