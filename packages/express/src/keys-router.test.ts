import { createAuthenticator, createIdTokenVerifier, createKeyManager, MemoryKeyStore } from '@drops/auth';
import { LocalIdentityProvider } from '@drops/auth/testing';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropsAuth } from './index.js';
import { listen, type TestServer } from './test-server.js';

let idp: LocalIdentityProvider;
let server: TestServer;
let parsedFirst: TestServer;

function buildApp(options: { jsonFirst: boolean }): express.Express {
  const keyStore = new MemoryKeyStore();
  const auth = dropsAuth({
    authenticator: createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) }),
    keys: createKeyManager({ keyStore }),
  });
  const app = express();
  // An app that already parses JSON everywhere must work too.
  if (options.jsonFirst) app.use(express.json());
  app.use('/keys', auth.keysRouter({ bodyLimit: 1024 }));
  app.use(auth.errorHandler());
  return app;
}

beforeAll(async () => {
  idp = await LocalIdentityProvider.start();
  server = await listen(buildApp({ jsonFirst: false }));
  parsedFirst = await listen(buildApp({ jsonFirst: true }));
});

afterAll(async () => {
  await server?.close();
  await parsedFirst?.close();
  await idp?.close();
});

const bearer = (credential: string): Record<string, string> => ({ authorization: `Bearer ${credential}` });
const json = { 'content-type': 'application/json' };

describe.each([
  ['reading the body itself', () => server],
  ['behind express.json()', () => parsedFirst],
])('keysRouter, %s', (_name, target) => {
  const url = (path: string): string => `${target().url}${path}`;

  it('mints with an ID token: 201, the secret once, no-store', async () => {
    const res = await fetch(url('/keys'), {
      method: 'POST',
      headers: { ...bearer(idp.mintIdToken({ sub: 'mint-1' })), ...json },
      body: JSON.stringify({ name: 'ci-main' }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['apiKey', 'createdAt', 'id', 'name', 'prefix']);
    expect(body['apiKey']).toMatch(/^hp_[A-Za-z0-9_-]{43}$/);
    expect(body['id']).toMatch(/^[0-9a-f]{64}$/);
    expect(body['prefix']).toBe((body['apiKey'] as string).slice(0, 10));
    expect(body['name']).toBe('ci-main');
  });

  it('mints with no body at all, and with an empty JSON object', async () => {
    const bare = await fetch(url('/keys'), { method: 'POST', headers: bearer(idp.mintIdToken({ sub: 'mint-2' })) });
    expect(bare.status).toBe(201);
    expect(((await bare.json()) as { name: unknown }).name).toBeNull();
    const empty = await fetch(url('/keys'), {
      method: 'POST',
      headers: { ...bearer(idp.mintIdToken({ sub: 'mint-2' })), ...json },
      body: '{}',
    });
    expect(empty.status).toBe(201);
  });

  it.each([
    ['a JSON array', '["x"]', json],
    ['a name that is not a string', '{"name": 42}', json],
    ['a name over 64 characters', JSON.stringify({ name: 'x'.repeat(65) }), json],
    ['an unknown field', '{"name":"a","scopes":["all"]}', json],
  ])('answers 400 JSON for %s', async (_label, body, headers) => {
    const res = await fetch(url('/keys'), {
      method: 'POST',
      headers: { ...bearer(idp.mintIdToken({ sub: 'mint-400' })), ...headers },
      body,
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(typeof ((await res.json()) as { error: unknown }).error).toBe('string');
  });

  it('lists the account keys newest first, never a secret; revokes with 204, then 404', async () => {
    const token = idp.mintIdToken({ sub: 'lister' });
    const minted: Array<{ apiKey: string; id: string }> = [];
    for (const name of ['one', 'two']) {
      const res = await fetch(url('/keys'), {
        method: 'POST',
        headers: { ...bearer(token), ...json },
        body: JSON.stringify({ name }),
      });
      minted.push((await res.json()) as { apiKey: string; id: string });
      await new Promise((r) => setTimeout(r, 5)); // distinct createdAt
    }
    const list = await fetch(url('/keys'), { headers: bearer(minted[0]!.apiKey) });
    expect(list.status).toBe(200);
    const text = await list.text();
    expect(text).not.toContain(minted[0]!.apiKey);
    const { keys } = JSON.parse(text) as { keys: Array<{ id: string; name: string; lastUsedAt: unknown }> };
    expect(keys.map((k) => k.name)).toEqual(['two', 'one']);
    expect(Object.keys(keys[0]!).sort()).toEqual(['createdAt', 'id', 'lastUsedAt', 'name', 'prefix']);

    // Any key of the account may revoke; the revoked key stops working at once.
    const del = await fetch(url(`/keys/${minted[1]!.id}`), { method: 'DELETE', headers: bearer(minted[0]!.apiKey) });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
    const again = await fetch(url(`/keys/${minted[1]!.id}`), { method: 'DELETE', headers: bearer(token) });
    expect(again.status).toBe(404);
    expect(await fetch(url('/keys'), { headers: bearer(minted[1]!.apiKey) }).then((r) => r.status)).toBe(401);
  });

  it("answers 404 for another account's key and 400 for an id that is not 64 lowercase hex", async () => {
    const mine = await fetch(url('/keys'), { method: 'POST', headers: bearer(idp.mintIdToken({ sub: 'owner-a' })) });
    const { id } = (await mine.json()) as { id: string };
    const other = bearer(idp.mintIdToken({ sub: 'owner-b' }));
    expect((await fetch(url(`/keys/${id}`), { method: 'DELETE', headers: other })).status).toBe(404);
    expect((await fetch(url(`/keys/${id.toUpperCase()}`), { method: 'DELETE', headers: other })).status).toBe(400);
    expect((await fetch(url('/keys/not-an-id'), { method: 'DELETE', headers: other })).status).toBe(400);
  });

  it('answers 405 with Allow and 404 to an authenticated caller on paths it does not serve', async () => {
    const token = bearer(idp.mintIdToken({ sub: 'wanderer' }));
    const put = await fetch(url('/keys'), { method: 'PUT', headers: token });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
    const get = await fetch(url(`/keys/${'a'.repeat(64)}`), { headers: token });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('DELETE');
    const deep = await fetch(url('/keys/a/b'), { headers: token });
    expect(deep.status).toBe(404);
    expect(typeof ((await deep.json()) as { error: unknown }).error).toBe('string');
  });
});

describe(`keysRouter on Express ${process.env['EXPRESS_MAJOR']}: no unhandled rejection`, () => {
  // Express 4 ignores a rejected promise from a handler: the request would hang and the process
  // get an unhandledRejection. Every path must answer JSON and leave the server up.
  it.each([
    ['with errorHandler()', true],
    ['without errorHandler()', false],
  ])('answers JSON for an API key minting, a malformed body, a bad id and an unknown id, %s', async (_label, withErrorHandler) => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown): void => void rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    const keyStore = new MemoryKeyStore();
    const auth = dropsAuth({
      authenticator: createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) }),
      keys: createKeyManager({ keyStore }),
    });
    const app = express();
    app.use('/keys', auth.keysRouter());
    if (withErrorHandler) app.use(auth.errorHandler());
    const target = await listen(app);
    try {
      const token = bearer(idp.mintIdToken({ sub: 'express-major' }));
      const minted = await fetch(`${target.url}/keys`, { method: 'POST', headers: token });
      const { apiKey } = (await minted.json()) as { apiKey: string };
      const answers: Array<[string, Response, number]> = [
        ['an API key minting', await fetch(`${target.url}/keys`, { method: 'POST', headers: bearer(apiKey) }), 401],
        ['a malformed body', await fetch(`${target.url}/keys`, { method: 'POST', headers: { ...token, ...json }, body: '{"name": ' }), 400],
        ['DELETE /keys/abc', await fetch(`${target.url}/keys/abc`, { method: 'DELETE', headers: token }), 400],
        ['an unknown id', await fetch(`${target.url}/keys/${'a'.repeat(64)}`, { method: 'DELETE', headers: token }), 404],
      ];
      for (const [what, res, status] of answers) {
        expect(res.status, what).toBe(status);
        expect(res.headers.get('content-type'), what).toBe('application/json; charset=utf-8');
        expect(typeof ((await res.json()) as { error: unknown }).error, what).toBe('string');
      }
      // Still up, still serving.
      expect((await fetch(`${target.url}/keys`, { headers: bearer(apiKey) })).status).toBe(200);
      await new Promise((resolve) => setImmediate(resolve));
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
      await target.close();
    }
  });
});

describe('keysRouter reading the body itself', () => {
  it.each([
    ['malformed JSON', '{"name": ', json],
    ['plain text', 'ci-main', { 'content-type': 'text/plain' }],
    ['a form', 'name=ci-main', { 'content-type': 'application/x-www-form-urlencoded' }],
  ])('answers 400 JSON for %s, never a 5xx', async (_label, body, headers) => {
    const res = await fetch(`${server.url}/keys`, {
      method: 'POST',
      headers: { ...bearer(idp.mintIdToken({ sub: 'mint-400' })), ...headers },
      body,
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(typeof ((await res.json()) as { error: unknown }).error).toBe('string');
  });

  it('answers 413 JSON for a body over the limit', async () => {
    const res = await fetch(`${server.url}/keys`, {
      method: 'POST',
      headers: { ...bearer(idp.mintIdToken({ sub: 'big' })), ...json },
      body: JSON.stringify({ name: 'x'.repeat(4000) }),
    });
    expect(res.status).toBe(413);
    expect(typeof ((await res.json()) as { error: unknown }).error).toBe('string');
  });

  it('refuses an API key on POST /keys before reading the body', async () => {
    const minted = await fetch(`${server.url}/keys`, { method: 'POST', headers: bearer(idp.mintIdToken({ sub: 'k' })) });
    const { apiKey } = (await minted.json()) as { apiKey: string };
    const res = await fetch(`${server.url}/keys`, {
      method: 'POST',
      headers: { ...bearer(apiKey), ...json },
      body: 'not json at all',
    });
    expect(res.status).toBe(401);
  });

  it('checks its options when created', () => {
    const keyStore = new MemoryKeyStore();
    const auth = dropsAuth({ authenticator: createAuthenticator({ keyStore }), keys: createKeyManager({ keyStore }) });
    expect(() => auth.keysRouter({ bodyLimit: 0 })).toThrow(TypeError);
    expect(() => auth.keysRouter({ bodyLimit: 1.5 })).toThrow(TypeError);
  });
});
