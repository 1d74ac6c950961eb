// Deno: `deno run --allow-net --allow-env --allow-read --allow-sys --unstable-sloppy-imports src/deno.ts`.
// Deno resolves @drops/auth to its Web Crypto build.
import { createService } from './create-service.js';
import { identitySetupFromEnv } from './identity-provider.js';

/** What Deno gives a fetch handler as its second argument (Hono's `c.env`). */
interface DenoServeInfo {
  remoteAddr: { hostname: string };
}
declare const Deno: {
  serve(
    options: { hostname: string; port: number; onListen(address: { port: number }): void },
    handler: (request: Request, info: DenoServeInfo) => Response | Promise<Response>,
  ): unknown;
};

const identity = await identitySetupFromEnv();
const app = createService(identity.verifier, (c) => (c.env as DenoServeInfo).remoteAddr.hostname);
const hostname = process.env.HOST ?? '127.0.0.1';
Deno.serve(
  { hostname, port: Number(process.env.PORT ?? 3000), onListen: ({ port }) => identity.announce(`http://${hostname}:${port}`) },
  app.fetch,
);
