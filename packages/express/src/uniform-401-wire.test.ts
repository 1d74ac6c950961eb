import { createAuthenticator, createIdTokenVerifier, createKeyManager, MemoryKeyStore, type UnauthenticatedOptions } from '@drops/auth';
import { LocalIdentityProvider, snapshotOf, uniform401Of, uniform401WireSweep, UNAUTHENTICATED_VARIANTS } from '@drops/auth/testing';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropsAuth, principalOf } from './index.js';
import { listen, type TestServer } from './test-server.js';

// The uniform 401 read off the socket: status line, header lines in order, body bytes.
let idp: LocalIdentityProvider;
const servers: TestServer[] = [];

async function start(withErrorHandler: boolean, unauthenticated: UnauthenticatedOptions | undefined): Promise<TestServer> {
  const keyStore = new MemoryKeyStore();
  const auth = dropsAuth({
    authenticator: createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }), unauthenticated }),
    keys: createKeyManager({ keyStore }),
  });
  const app = express();
  app.use('/keys', auth.keysRouter());
  app.get('/whoami', auth.requireAuth(), (req, res) => {
    res.json({ accountId: principalOf(req).accountId });
  });
  app.get('/token-only', auth.requireAuth({ accept: ['id_token'] }), (_req, res) => {
    res.json({ ok: true });
  });
  app.post('/deploy', auth.optionalAuth(), (_req, res) => {
    res.status(201).json({});
  });
  if (withErrorHandler) app.use(auth.errorHandler());
  const server = await listen(app);
  servers.push(server);
  return server;
}

beforeAll(async () => {
  idp = await LocalIdentityProvider.start();
});

afterAll(async () => {
  for (const server of servers) await server.close();
  await idp?.close();
});

describe.each(
  UNAUTHENTICATED_VARIANTS.flatMap(([label, unauthenticated]) => [
    [`${label}, with errorHandler()`, true, unauthenticated] as const,
    [`${label}, without errorHandler()`, false, unauthenticated] as const,
  ]),
)(`the uniform 401 on the wire, Express ${process.env['EXPRESS_MAJOR']}, %s`, (_label, withErrorHandler, unauthenticated) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await start(withErrorHandler, unauthenticated);
  });

  it('is the same bytes, header order included, for every cause on every route', async () => {
    const sweep = await uniform401WireSweep({
      url: server.url,
      idp,
      accountRoutes: [['GET', '/whoami']],
      idTokenOnlyRoutes: [['GET', '/token-only']],
      optionalRoute: ['POST', '/deploy'],
    });
    for (const [what, wire] of sweep.answers) expect(wire, what).toBe(sweep.expected);
    expect(await snapshotOf(sweep.reference)).toEqual(uniform401Of(unauthenticated));
  });
});
