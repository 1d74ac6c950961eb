// Bun: `bun src/bun.ts`. Bun resolves @drops/auth to its Web Crypto build.
import { createService } from './create-service.js';
import { identitySetupFromEnv } from './identity-provider.js';

/** What Bun gives a fetch handler as its second argument (Hono's `c.env`). */
interface BunServer {
  port: number;
  requestIP(request: Request): { address: string } | null;
}
declare const Bun: {
  serve(options: {
    hostname: string;
    port: number;
    fetch: (request: Request, server: BunServer) => Response | Promise<Response>;
  }): BunServer;
};

const identity = await identitySetupFromEnv();
const app = createService(identity.verifier, (c) => (c.env as BunServer).requestIP(c.req.raw)?.address);
const hostname = process.env.HOST ?? '127.0.0.1';
const server = Bun.serve({ hostname, port: Number(process.env.PORT ?? 3000), fetch: app.fetch });
identity.announce(`http://${hostname}:${server.port}`);
