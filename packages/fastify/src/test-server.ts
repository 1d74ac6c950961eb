import type { FastifyInstance } from 'fastify';

/** A Fastify app listening on 127.0.0.1 at a random port, for tests over real HTTP. */
export interface TestServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts `app` on 127.0.0.1, port 0. Test helper; not exported from the package. */
export async function listen(app: FastifyInstance): Promise<TestServer> {
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    async close() {
      app.server.closeAllConnections();
      await app.close();
    },
  };
}
