// Test helper (not exported): a fetch-style handler served by Node on a random loopback port,
// through @hono/node-server's plain `serve({ fetch })` (no Hono app in between).
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';

export interface FetchTestServer {
  readonly url: string;
  close(): Promise<void>;
}

export async function serveFetch(fetch: (request: Request) => Response | Promise<Response>): Promise<FetchTestServer> {
  let server: ServerType | undefined;
  await new Promise<void>((resolve) => {
    server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
  });
  const running = server!;
  const { port } = running.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        if ('closeAllConnections' in running) running.closeAllConnections();
        running.close(() => resolve());
      }),
  };
}
