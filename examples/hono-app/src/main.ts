// Node: `pnpm start` (tsx src/main.ts), served by @hono/node-server.
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { createService } from './create-service.js';
import { identitySetupFromEnv } from './identity-provider.js';

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '127.0.0.1';

const identity = await identitySetupFromEnv();
const app = createService(identity.verifier, (c) => getConnInfo(c).remote.address);

const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
  identity.announce(`http://${hostname}:${info.port}`);
});

process.once('SIGINT', shutdown).once('SIGTERM', shutdown);
function shutdown(): void {
  server.close(() => void identity.close());
}
