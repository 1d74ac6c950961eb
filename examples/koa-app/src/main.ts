import { createAuthenticator, createKeyManager, MemoryKeyStore } from '@drops/auth';
import { createApp } from './app.js';
import { identitySetupFromEnv } from './identity-provider.js';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';

const identity = await identitySetupFromEnv();
const keyStore = new MemoryKeyStore();
const app = createApp({
  authenticator: createAuthenticator({ keyStore, idTokenVerifier: identity.verifier }),
  keys: createKeyManager({ keyStore }),
});

const server = app.listen(port, host, () => {
  const base = `http://${host}:${port}`;
  console.log(`koa-app listening on ${base}`);
  if (identity.mintDemoToken) {
    console.log(`\nlocal identity provider: an ID token for "demo-account" (valid one hour):\n`);
    console.log(`export ID_TOKEN=${identity.mintDemoToken()}\n`);
    console.log(`curl -s -X POST ${base}/keys -H "Authorization: Bearer $ID_TOKEN" -d '{"name":"laptop"}'`);
  }
});

process.once('SIGINT', shutdown).once('SIGTERM', shutdown);
function shutdown(): void {
  server.close(() => void identity.close());
  server.closeIdleConnections();
}
