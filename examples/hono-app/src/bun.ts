// Bun: `bun src/bun.ts`. Bun resolves @drops/auth to its Web Crypto build.
import { createService } from './create-service.js';
import { identitySetupFromEnv } from './identity-provider.js';

declare const Bun: {
  serve(options: { hostname: string; port: number; fetch: (request: Request) => Response | Promise<Response> }): {
    port: number;
  };
};

const identity = await identitySetupFromEnv();
const app = createService(identity.verifier);
const hostname = process.env.HOST ?? '127.0.0.1';
const server = Bun.serve({ hostname, port: Number(process.env.PORT ?? 3000), fetch: app.fetch });
identity.announce(`http://${hostname}:${server.port}`);
