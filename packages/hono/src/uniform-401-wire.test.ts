import { createAuthenticator, createIdTokenVerifier, createKeyManager, MemoryKeyStore } from '@drops/auth';
import { LocalIdentityProvider, snapshotOf, uniform401Of, uniform401WireSweep, UNAUTHENTICATED_VARIANTS } from '@drops/auth/testing';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropsAuth } from './drops-auth.js';
import type { DropsAuthVariables } from './drops-auth-variables.js';
import { listen, type TestServer } from './test-server.js';

// The uniform 401 read off the socket: status line, header lines in order, body bytes.
let idp: LocalIdentityProvider;

beforeAll(async () => {
  idp = await LocalIdentityProvider.start();
});

afterAll(async () => {
  await idp?.close();
});

describe.each(UNAUTHENTICATED_VARIANTS)('the uniform 401 on the wire, Hono on @hono/node-server, %s', (_label, unauthenticated) => {
  let server: TestServer;

  beforeAll(async () => {
    const keyStore = new MemoryKeyStore();
    const auth = dropsAuth({
      authenticator: createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }), unauthenticated }),
      keys: createKeyManager({ keyStore }),
    });
    const app = new Hono<{ Variables: DropsAuthVariables }>();
    app.route('/keys', auth.keysRoutes());
    app.get('/whoami', auth.requireAuth(), (c) => c.json({ accountId: c.var.auth.accountId }));
    app.get('/token-only', auth.requireAuth({ accept: ['id_token'] }), (c) => c.json({ ok: true }));
    app.post('/deploy', auth.optionalAuth(), (c) => c.json({ owner: c.var.auth?.accountId ?? null }, 201));
    server = await listen(app);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('is the same bytes, header order included, for every cause on every route', async () => {
    const sweep = await uniform401WireSweep({
      url: server.url,
      idp,
      accountRoutes: [
        ['GET', '/whoami'],
        ['GET', '/keys'],
      ],
      idTokenOnlyRoutes: [
        ['GET', '/token-only'],
        ['POST', '/keys'],
      ],
      optionalRoute: ['POST', '/deploy'],
    });
    for (const [what, wire] of sweep.answers) expect(wire, what).toBe(sweep.expected);
    expect(await snapshotOf(sweep.reference)).toEqual(uniform401Of(unauthenticated));
  });
});
