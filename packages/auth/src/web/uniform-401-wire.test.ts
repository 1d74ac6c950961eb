import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../authenticator/create-authenticator.js';
import { createIdTokenVerifier } from '../id-token/create-id-token-verifier.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { createKeyManager } from '../keys/create-key-manager.js';
import { authFailureCases } from '../testing/auth-failure-cases.js';
import { LocalIdentityProvider } from '../testing/local-identity-provider.js';
import { sendRawRequest, wireSnapshotOf } from '../testing/raw-http.js';
import { snapshotOf, UNIFORM_401 } from '../testing/uniform-401.js';
import { keysHandler } from './keys-handler.js';
import { serveFetch, type FetchTestServer } from './test-fetch-server.js';
import { withAuth } from './with-auth.js';

// The fetch adapter's uniform 401 read off the socket of a Node server: status line, header
// lines in order, body bytes.
let idp: LocalIdentityProvider;
let server: FetchTestServer;

beforeAll(async () => {
  idp = await LocalIdentityProvider.start();
  const keyStore = new MemoryKeyStore();
  const authenticator = createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) });
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
  await idp?.close();
});

const bearer = (credential: string): Record<string, string> => ({ authorization: `Bearer ${credential}` });

describe('the uniform 401 on the wire, fetch adapter on a Node server', () => {
  it('is the same bytes, header order included, for every cause on every route', async () => {
    const token = idp.mintIdToken({ sub: 'wire' });
    const mint = async (): Promise<{ apiKey: string; id: string }> =>
      (await (await fetch(`${server.url}/keys`, { method: 'POST', headers: bearer(token) })).json()) as {
        apiKey: string;
        id: string;
      };
    const revoked = await mint();
    expect((await fetch(`${server.url}/keys/${revoked.id}`, { method: 'DELETE', headers: bearer(token) })).status).toBe(204);
    const live = await mint();

    const routes: Array<[string, string, string?]> = [
      ['GET', '/whoami'],
      ['GET', '/token-only'],
      ['GET', '/keys'],
      ['POST', '/keys', '{"name":"x"}'],
      ['POST', '/keys', '{"name": '],
      ['DELETE', `/keys/${live.id}`],
      ['DELETE', '/keys/abc'],
      ['PUT', '/keys'],
      ['GET', '/keys/a/b'],
    ];
    const answers: Array<[string, string]> = [];
    for (const [method, path, body] of routes) {
      for (const { cause, headers } of authFailureCases({ idp, revokedApiKey: revoked.apiKey })) {
        const res = await sendRawRequest(server.url, method, path, headers, body);
        answers.push([`${cause} on ${method} ${path}`, wireSnapshotOf(res)]);
      }
    }
    for (const [method, path, body] of [['POST', '/keys', '{"name":"x"}'], ['POST', '/keys', 'not json'], ['GET', '/token-only']] as const) {
      const res = await sendRawRequest(server.url, method, path, [['Authorization', `Bearer ${live.apiKey}`]], body);
      answers.push([`wrong credential type on ${method} ${path}`, wireSnapshotOf(res)]);
    }
    const optional = await sendRawRequest(server.url, 'POST', '/deploy', [['Authorization', 'Bearer hp_nope']]);
    answers.push(['unknown on POST /deploy', wireSnapshotOf(optional)]);

    const first = await sendRawRequest(server.url, 'GET', '/whoami');
    const expected = wireSnapshotOf(first);
    for (const [what, wire] of answers) expect(wire, what).toBe(expected);
    expect(await snapshotOf(first)).toEqual(UNIFORM_401);
  });
});
