import { createAuthenticator, createIdTokenVerifier, createKeyManager, MemoryKeyStore } from '@drops/auth';
import {
  authFailureCases,
  LocalIdentityProvider,
  sendRawRequest,
  snapshotOf,
  UNIFORM_401,
  wireSnapshotOf,
} from '@drops/auth/testing';
import Router from '@koa/router';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropsAuth } from './drops-auth.js';
import { listen, type TestServer } from './test-server.js';

// The uniform 401 read off the socket: status line, header lines in order, body bytes.
let idp: LocalIdentityProvider;
let server: TestServer;

beforeAll(async () => {
  idp = await LocalIdentityProvider.start();
  const keyStore = new MemoryKeyStore();
  const auth = dropsAuth({
    authenticator: createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) }),
    keys: createKeyManager({ keyStore }),
  });
  const router = new Router();
  router.get('/whoami', auth.requireAuth(), (ctx) => {
    ctx.body = { accountId: ctx.state.auth.accountId };
  });
  router.get('/token-only', auth.requireAuth({ accept: ['id_token'] }), (ctx) => {
    ctx.body = { ok: true };
  });
  router.post('/deploy', auth.optionalAuth(), (ctx) => {
    ctx.status = 201;
    ctx.body = {};
  });
  const app = new Koa();
  app.silent = true;
  app.use(auth.keysRouter().routes());
  app.use(router.routes()).use(router.allowedMethods());
  server = await listen(app);
});

afterAll(async () => {
  await server?.close();
  await idp?.close();
});

const bearer = (credential: string): Record<string, string> => ({ authorization: `Bearer ${credential}` });

describe(`the uniform 401 on the wire, Koa ${process.env['KOA_MAJOR']}, @koa/router ${process.env['KOA_ROUTER_MAJOR']}`, () => {
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
    // Wrong credential type: an API key minting (with and without a body, a bad one too), or on an ID-token-only route.
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
