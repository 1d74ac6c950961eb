import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../authenticator/create-authenticator.js';
import { createIdTokenVerifier } from '../id-token/create-id-token-verifier.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { createKeyManager } from '../keys/create-key-manager.js';
import { LocalIdentityProvider } from '../testing/local-identity-provider.js';
import { uniform401WireSweep } from '../testing/uniform-401-wire-sweep.js';
import { snapshotOf, UNAUTHENTICATED_VARIANTS, uniform401Of } from '../testing/uniform-401.js';
import { keysHandler } from './keys-handler.js';
import { serveFetch, type FetchTestServer } from './test-fetch-server.js';
import { withAuth } from './with-auth.js';

// The fetch adapter's uniform 401 read off the socket of a Node server: status line, header
// lines in order, body bytes.
let idp: LocalIdentityProvider;

beforeAll(async () => {
  idp = await LocalIdentityProvider.start();
});

afterAll(async () => {
  await idp?.close();
});

describe.each(UNAUTHENTICATED_VARIANTS)('the uniform 401 on the wire, fetch adapter on a Node server, %s', (_label, unauthenticated) => {
  let server: FetchTestServer;

  beforeAll(async () => {
    const keyStore = new MemoryKeyStore();
    const authenticator = createAuthenticator({
      keyStore,
      idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }),
      unauthenticated,
    });
    const keys = keysHandler(authenticator, createKeyManager({ keyStore }));
    const whoami = withAuth(authenticator, {}, (_request, principal) => Response.json({ accountId: principal.accountId }));
    const tokenOnly = withAuth(authenticator, { accept: ['id_token'] }, () => Response.json({ ok: true }));
    const deploy = withAuth(authenticator, { optional: true }, () => Response.json({}, { status: 201 }));
    server = await serveFetch((request) => {
      const path = new URL(request.url).pathname;
      if (path === '/whoami') return whoami(request);
      if (path === '/token-only') return tokenOnly(request);
      if (path === '/deploy') return deploy(request);
      return keys(request);
    });
  });

  afterAll(async () => {
    await server?.close();
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
