import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../authenticator/create-authenticator.js';
import { createIdTokenVerifier } from '../id-token/create-id-token-verifier.js';
import type { KeyStore } from '../key-store/key-store.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { createKeyManager } from '../keys/create-key-manager.js';
import { LocalIdentityProvider } from '../testing/local-identity-provider.js';
import { snapshotOf, UNIFORM_401 } from '../testing/uniform-401.js';
import { keysHandler } from './keys-handler.js';
import { serveFetch, type FetchTestServer } from './test-fetch-server.js';

let idp: LocalIdentityProvider;
let server: FetchTestServer;
let keyStore: MemoryKeyStore;

function handlerFor(store: KeyStore, options?: Parameters<typeof keysHandler>[2]): (request: Request) => Promise<Response> {
  const authenticator = createAuthenticator({ keyStore: store, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) });
  return keysHandler(authenticator, createKeyManager({ keyStore: store }), options);
}

beforeAll(async () => {
  idp = await LocalIdentityProvider.start();
  keyStore = new MemoryKeyStore();
  server = await serveFetch(handlerFor(keyStore, { bodyLimit: 1024 }));
});

afterAll(async () => {
  await server?.close();
  await idp?.close();
});

const bearer = (credential: string): Record<string, string> => ({ authorization: `Bearer ${credential}` });
const json = { 'content-type': 'application/json' };
const url = (path: string): string => `${server.url}${path}`;

async function mint(sub: string, name?: string): Promise<{ apiKey: string; id: string; name: string | null }> {
  const res = await fetch(url('/keys'), {
    method: 'POST',
    headers: { ...bearer(idp.mintIdToken({ sub })), ...json },
    body: name === undefined ? undefined : JSON.stringify({ name }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { apiKey: string; id: string; name: string | null };
}

describe('keysHandler on a plain fetch server', () => {
  it('mints with an ID token: 201, the secret once, no-store', async () => {
    const res = await fetch(url('/keys'), {
      method: 'POST',
      headers: { ...bearer(idp.mintIdToken({ sub: 'mint-1' })), ...json },
      body: JSON.stringify({ name: 'ci-main' }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['apiKey', 'createdAt', 'id', 'name', 'prefix']);
    expect(body['apiKey']).toMatch(/^hp_[A-Za-z0-9_-]{43}$/);
    expect(body['prefix']).toBe((body['apiKey'] as string).slice(0, 10));
    expect((await keyStore.findActive(body['id'] as string))?.accountId).toBe('mint-1');
    expect((await mint('mint-1')).name).toBeNull();
  });

  it('refuses an API key on POST /keys with the uniform 401, whatever the body', async () => {
    const { apiKey } = await mint('mint-key');
    for (const body of [undefined, '{"name":"x"}', 'not json']) {
      const res = await fetch(url('/keys'), { method: 'POST', headers: { ...bearer(apiKey), ...json }, body });
      expect(await snapshotOf(res)).toEqual(UNIFORM_401);
    }
  });

  it.each([
    ['malformed JSON', '{"name": '],
    ['a JSON array', '["x"]'],
    ['a name that is not a string', '{"name": 42}'],
    ['an unknown field', '{"name":"a","scopes":["all"]}'],
  ])('answers 400 JSON for %s', async (_label, body) => {
    const res = await fetch(url('/keys'), { method: 'POST', headers: { ...bearer(idp.mintIdToken()), ...json }, body });
    expect(res.status).toBe(400);
    expect(typeof ((await res.json()) as { error: unknown }).error).toBe('string');
  });

  it('answers 413 for a body over the limit, and 400 for a compressed one', async () => {
    const big = await fetch(url('/keys'), {
      method: 'POST',
      headers: { ...bearer(idp.mintIdToken()), ...json },
      body: JSON.stringify({ name: 'x'.repeat(4000) }),
    });
    expect(big.status).toBe(413);
    const gzip = await fetch(url('/keys'), {
      method: 'POST',
      headers: { ...bearer(idp.mintIdToken()), ...json, 'content-encoding': 'gzip' },
      body: '{}',
    });
    expect(gzip.status).toBe(400);
  });

  it('lists newest first, never a secret; revokes 204, then 404; 400 for a bad id', async () => {
    const token = bearer(idp.mintIdToken({ sub: 'lister' }));
    const one = await mint('lister', 'one');
    await new Promise((resolve) => setTimeout(resolve, 5)); // distinct createdAt
    const two = await mint('lister', 'two');
    const list = await fetch(url('/keys'), { headers: bearer(one.apiKey) });
    expect(list.status).toBe(200);
    const text = await list.text();
    expect(text).not.toContain(one.apiKey);
    expect((JSON.parse(text) as { keys: Array<{ name: string }> }).keys.map((k) => k.name)).toEqual(['two', 'one']);

    const del = await fetch(url(`/keys/${two.id}`), { method: 'DELETE', headers: bearer(one.apiKey) });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
    expect((await fetch(url(`/keys/${two.id}`), { method: 'DELETE', headers: token })).status).toBe(404);
    expect((await fetch(url('/keys'), { headers: bearer(two.apiKey) })).status).toBe(401);
    expect((await fetch(url(`/keys/${one.id}`), { method: 'DELETE', headers: bearer(idp.mintIdToken({ sub: 'other' })) })).status).toBe(404);
    expect((await fetch(url(`/keys/${'a'.repeat(64)}`), { method: 'DELETE', headers: token })).status).toBe(404);
    for (const bad of ['abc', one.id.toUpperCase(), '%E0%A4%A']) {
      const res = await fetch(url(`/keys/${bad}`), { method: 'DELETE', headers: token });
      expect(res.status, bad).toBe(400);
      expect(typeof ((await res.json()) as { error: unknown }).error).toBe('string');
    }
  });

  it('answers 405 with Allow and 404 once authenticated; the uniform 401 before that', async () => {
    const token = bearer(idp.mintIdToken());
    const put = await fetch(url('/keys'), { method: 'PUT', headers: token });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
    const get = await fetch(url(`/keys/${'a'.repeat(64)}`), { headers: token });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('DELETE');
    expect((await fetch(url('/keys/a/b'), { headers: token })).status).toBe(404);
    for (const [method, path] of [['PUT', '/keys'], ['GET', '/keys/abc'], ['PATCH', '/keys/a/b'], ['DELETE', '/keys/abc']]) {
      expect(await snapshotOf(await fetch(url(path!), { method }))).toEqual(UNIFORM_401);
    }
    // Not under /keys: not this handler's.
    expect((await fetch(url('/keysmith'), { headers: token })).status).toBe(404);
  });

  it('answers 503 with Retry-After, never 401, when the key store is down', async () => {
    const down = (): Promise<never> => Promise.reject(new Error('db down'));
    const broken: KeyStore = {
      create: down,
      findActive: down,
      listByAccount: down,
      revoke: down,
      recordUse: () => {},
      recordRevocationRequest: down,
      pendingRevocationRequests: down,
      completeRevocationRequest: down,
    };
    const handler = handlerFor(broken);
    const token = bearer(idp.mintIdToken({ sub: 'u-503' }));
    for (const request of [
      new Request('http://x/keys', { headers: bearer(`hp_${'B'.repeat(42)}A`) }),
      new Request('http://x/keys', { headers: token }),
      new Request('http://x/keys', { method: 'POST', headers: token }),
      new Request(`http://x/keys/${'a'.repeat(64)}`, { method: 'DELETE', headers: token }),
    ]) {
      const res = await handler(request);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    }
  });

  it('answers the key manager\'s limits as JSON: 409 over the key limit, and a revoke frees the slot', async () => {
    const store = new MemoryKeyStore();
    const authenticator = createAuthenticator({ keyStore: store, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) });
    const handler = keysHandler(authenticator, createKeyManager({ keyStore: store, maxKeysPerAccount: 1 }));
    const token = bearer(idp.mintIdToken({ sub: 'limited' }));
    const first = await handler(new Request('http://x/keys', { method: 'POST', headers: token }));
    expect(first.status).toBe(201);
    const over = await handler(new Request('http://x/keys', { method: 'POST', headers: token }));
    expect(over.status).toBe(409);
    expect(typeof ((await over.json()) as { error: unknown }).error).toBe('string');
    const { id } = (await first.json()) as { id: string };
    expect((await handler(new Request(`http://x/keys/${id}`, { method: 'DELETE', headers: token }))).status).toBe(204);
    expect((await handler(new Request('http://x/keys', { method: 'POST', headers: token }))).status).toBe(201);
  });

  it('serves another basePath', async () => {
    const handler = handlerFor(new MemoryKeyStore(), { basePath: '/api/keys' });
    const res = await handler(new Request('http://x/api/keys', { method: 'POST', headers: bearer(idp.mintIdToken()) }));
    expect(res.status).toBe(201);
    expect((await handler(new Request('http://x/keys', { headers: bearer(idp.mintIdToken()) }))).status).toBe(404);
  });

  it('checks its options when created', () => {
    const store = new MemoryKeyStore();
    const authenticator = createAuthenticator({ keyStore: store });
    const keys = createKeyManager({ keyStore: store });
    expect(() => keysHandler(authenticator, keys, { bodyLimit: 0 })).toThrow(TypeError);
    expect(() => keysHandler(authenticator, keys, { basePath: 'keys' })).toThrow(TypeError);
    expect(() => keysHandler(authenticator, keys, { basePath: '/keys/' })).toThrow(TypeError);
    expect(() => keysHandler(authenticator, keys, { limit: 1 } as never)).toThrow(/unknown option "limit"/);
    expect(() => keysHandler(authenticator, {} as never)).toThrow(TypeError);
    expect(() => keysHandler({} as never, keys)).toThrow(TypeError);
  });
});
