import { createAuthenticator, createIdTokenVerifier, createKeyManager, MemoryKeyStore } from '@drops/auth';
import {
  authFailureCases,
  LocalIdentityProvider,
  sendRawRequest,
  snapshotOf,
  UNIFORM_401,
  wireSnapshotOf,
} from '@drops/auth/testing';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropsAuth, principalOf } from './index.js';
import { listen, type TestServer } from './test-server.js';

// The uniform 401 read off the socket: status line, header lines in order, body bytes.
let idp: LocalIdentityProvider;
const servers: TestServer[] = [];

async function start(withErrorHandler: boolean): Promise<TestServer> {
  const keyStore = new MemoryKeyStore();
  const auth = dropsAuth({
    authenticator: createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) }),
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

const bearer = (credential: string): Record<string, string> => ({ authorization: `Bearer ${credential}` });

describe.each([
  ['with errorHandler()', true],
  ['without errorHandler()', false],
])(`the uniform 401 on the wire, Express ${process.env['EXPRESS_MAJOR']}, %s`, (_label, withErrorHandler) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await start(withErrorHandler);
  });

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
    // Wrong credential type: an API key minting (with and without a body), or on an ID-token-only route.
    for (const [method, path, body] of [['POST', '/keys', '{"name":"x"}'], ['POST', '/keys', 'not json'], ['GET', '/token-only']] as const) {
      const res = await sendRawRequest(server.url, method, path, [['Authorization', `Bearer ${live.apiKey}`]], body);
      answers.push([`wrong credential type on ${method} ${path}`, wireSnapshotOf(res)]);
    }
    // A credential that does not authenticate on a route that also serves anonymous callers.
    const optional = await sendRawRequest(server.url, 'POST', '/deploy', [['Authorization', 'Bearer hp_nope']]);
    answers.push(['unknown on POST /deploy', wireSnapshotOf(optional)]);

    const first = await sendRawRequest(server.url, 'GET', '/whoami');
    const expected = wireSnapshotOf(first);
    for (const [what, wire] of answers) expect(wire, what).toBe(expected);
    expect(await snapshotOf(first)).toEqual(UNIFORM_401);
  });
});
