// Test helper (not exported): a fetch-style handler served by Node on a random loopback port,
// through @hono/node-server's plain `serve({ fetch })` (no Hono app in between).
import { serve, type Http2Bindings, type HttpBindings, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { RequestInfo } from '../key-store/key-event.js';

export interface FetchTestServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves `fetch`, handing it the client's address as the runtime knows it (a `Request` carries none). */
export async function serveFetch(fetch: (request: Request, client: RequestInfo) => Response | Promise<Response>): Promise<FetchTestServer> {
  let server: ServerType | undefined;
  const withClient = (request: Request, env: HttpBindings | Http2Bindings): Response | Promise<Response> =>
    fetch(request, { ip: env.incoming.socket.remoteAddress ?? null });
  await new Promise<void>((resolve) => {
    server = serve({ fetch: withClient, port: 0, hostname: '127.0.0.1' }, () => resolve());
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
