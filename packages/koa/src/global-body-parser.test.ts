// `@koa/bodyparser` mounted app-wide, before or after drops' key router: a body the parser cannot
// read never makes a 5xx. In the documented order (drops' routers first) the credential is judged
// before the body, so a bad body without a valid credential is the uniform 401.
import { createAuthenticator, createIdTokenVerifier, createKeyManager, MemoryKeyStore } from '@drops/auth';
import { LocalIdentityProvider, sendRawRequest, snapshotOf, UNIFORM_401, wireSnapshotOf } from '@drops/auth/testing';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropsAuth } from './drops-auth.js';
import { listen, type TestServer } from './test-server.js';

let idp: LocalIdentityProvider;
const servers: TestServer[] = [];

/** An app with `bodyParser({ jsonLimit: '1kb', formLimit: '1kb' })` mounted before or after drops' key router. */
async function start(parser: 'before' | 'after'): Promise<TestServer> {
  const keyStore = new MemoryKeyStore();
  const auth = dropsAuth({
    authenticator: createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) }),
    keys: createKeyManager({ keyStore }),
  });
  const router = new Router();
  router.get('/whoami', auth.requireAuth(), (ctx) => {
    ctx.body = { accountId: ctx.state.auth.accountId };
  });
  const app = new Koa();
  app.silent = true;
  const parse = bodyParser({ jsonLimit: '1kb', formLimit: '1kb' });
  if (parser === 'before') app.use(parse);
  // With the parser after it, drops' own body limit is the one that applies: 1 KiB here too.
  app.use(auth.keysRouter({ bodyLimit: 1024 }).routes());
  if (parser === 'after') app.use(parse);
  app.use(router.routes()).use(router.allowedMethods());
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

const BODIES = [
  { what: 'malformed JSON', contentType: 'application/json', body: '{"name":' },
  { what: 'oversized JSON', contentType: 'application/json', body: JSON.stringify({ name: 'x'.repeat(4096) }) },
  { what: 'oversized urlencoded', contentType: 'application/x-www-form-urlencoded', body: `name=${'x'.repeat(4096)}` },
] as const;

const bad = (apiKey: string): ReadonlyArray<readonly [string, ReadonlyArray<readonly [string, string]>]> => [
  ['no credential', []],
  ['an unknown API key', [['Authorization', `Bearer hp_${'A'.repeat(43)}`]]],
  ['an API key (ID token only)', [['Authorization', `Bearer ${apiKey}`]]],
];

async function mintKey(url: string): Promise<string> {
  const res = await fetch(`${url}/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${idp.mintIdToken({ sub: 'koa-parser' })}` },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { apiKey: string }).apiKey;
}

async function post(url: string, contentType: string, body: string, headers: ReadonlyArray<readonly [string, string]>) {
  return sendRawRequest(url, 'POST', '/keys', [...headers, ['Content-Type', contentType]], body);
}

describe("@koa/bodyparser after drops' key router (the documented order)", () => {
  it('answers a body it cannot read with the uniform 401 without a valid credential, a JSON 400/413 with one', async () => {
    const { url } = await start('after');
    const reference = await sendRawRequest(url, 'GET', '/whoami');
    expect(await snapshotOf(reference)).toEqual(UNIFORM_401);
    const apiKey = await mintKey(url);
    const token = idp.mintIdToken({ sub: 'koa-parser' });
    for (const [{ what, contentType, body }, status] of [
      [BODIES[0], 400],
      [BODIES[1], 413],
      [BODIES[2], 413],
    ] as const) {
      for (const [credential, headers] of bad(apiKey)) {
        expect(wireSnapshotOf(await post(url, contentType, body, headers)), `${what}, ${credential}`).toBe(wireSnapshotOf(reference));
      }
      const res = await post(url, contentType, body, [['Authorization', `Bearer ${token}`]]);
      expect([res.status, res.headers['content-type']], `${what}, an ID token`).toEqual([status, 'application/json; charset=utf-8']);
      expect(Object.keys(JSON.parse(res.body.toString()) as object), `${what}, an ID token`).toEqual(['error']);
    }
  });
});

describe("@koa/bodyparser before drops' key router", () => {
  // The parser reads the body before any credential is judged: its own plain-text 400/413 (Koa's
  // answer to the error it throws) for every caller, which is why docs/adapters.md says to mount
  // drops' routers first. Never a 5xx, and never the drops route.
  it('answers a body it cannot read with its own text 400/413 whatever the credential, never a 5xx', async () => {
    const { url } = await start('before');
    const apiKey = await mintKey(url);
    const token = idp.mintIdToken({ sub: 'koa-parser' });
    for (const [{ what, contentType, body }, status, text] of [
      [BODIES[0], 400, 'Bad Request'],
      [BODIES[1], 413, 'request entity too large'],
      [BODIES[2], 413, 'request entity too large'],
    ] as const) {
      for (const [credential, headers] of [...bad(apiKey), ['an ID token', [['Authorization', `Bearer ${token}`]]] as const]) {
        const res = await post(url, contentType, body, headers);
        expect([res.status, res.headers['content-type'], res.body.toString()], `${what}, ${credential}`).toEqual([
          status,
          'text/plain; charset=utf-8',
          text,
        ]);
      }
    }
  });
});
