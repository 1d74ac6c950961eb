// Deno: `deno run --allow-net --allow-env --allow-read --allow-sys --unstable-sloppy-imports src/deno.ts`.
// Deno resolves @drops/auth to its Web Crypto build.
import { createService } from './create-service.js';
import { identitySetupFromEnv } from './identity-provider.js';

declare const Deno: {
  serve(
    options: { hostname: string; port: number; onListen(address: { port: number }): void },
    handler: (request: Request) => Response | Promise<Response>,
  ): unknown;
};

const identity = await identitySetupFromEnv();
const app = createService(identity.verifier);
const hostname = process.env.HOST ?? '127.0.0.1';
Deno.serve(
  { hostname, port: Number(process.env.PORT ?? 3000), onListen: ({ port }) => identity.announce(`http://${hostname}:${port}`) },
  app.fetch,
);
