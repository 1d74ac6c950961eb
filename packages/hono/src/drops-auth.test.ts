import { createAuthenticator, createIdTokenVerifier, createKeyManager, MemoryKeyStore, type Principal } from '@drops/auth';
import { LocalIdentityProvider, snapshotOf, UNIFORM_401 } from '@drops/auth/testing';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { dropsAuth } from './drops-auth.js';

let idp: LocalIdentityProvider;
beforeAll(async () => {
  idp = await LocalIdentityProvider.start();
});
afterAll(async () => {
  await idp?.close();
});

function authFor(options: { clientIp?: Parameters<typeof dropsAuth>[0]['clientIp'] } = {}) {
  const keyStore = new MemoryKeyStore();
  const keys = createKeyManager({ keyStore });
  const auth = dropsAuth({
    authenticator: createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) }),
    keys,
    ...options,
  });
  return { auth, keys };
}
const bearer = (credential: string): Record<string, string> => ({ authorization: `Bearer ${credential}` });

describe('dropsAuth() for Hono: options', () => {
  const keyStore = new MemoryKeyStore();
  const authenticator = createAuthenticator({ keyStore });
  const keys = createKeyManager({ keyStore });

  it('are checked when created: a mistake or an unknown option is a TypeError', () => {
    expect(() => dropsAuth({ authenticator, keys, limit: 1 } as never)).toThrow(TypeError);
    expect(() => dropsAuth({ authenticator, keys, clientIp: 'x-forwarded-for' } as never)).toThrow(/clientIp/);
    expect(() => dropsAuth({ authenticator: {} } as never)).toThrow(TypeError);
    expect(() => dropsAuth(undefined as never)).toThrow(TypeError);
    const auth = dropsAuth({ authenticator, keys });
    expect(() => auth.requireAuth({ accept: ['password'] } as never)).toThrow(TypeError);
    expect(() => auth.requireAuth({ optional: true } as never)).toThrow(/unknown option "optional"/);
    expect(() => auth.optionalAuth({ acept: ['id_token'] } as never)).toThrow(TypeError);
    expect(() => auth.keysRoutes({ bodyLimit: 0 })).toThrow(TypeError);
    expect(() => auth.keysRoutes({ limit: 1 } as never)).toThrow(TypeError);
    expect(() => dropsAuth({ authenticator }).keysRoutes()).toThrow(/pass keys/);
  });
});

describe('dropsAuth() for Hono: middleware and mounting', () => {
  it('types c.var.auth after requireAuth() and optionalAuth()', async () => {
    const { auth } = authFor();
    const app = new Hono();
    app.get('/whoami', auth.requireAuth(), (c) => {
      expectTypeOf(c.var.auth).toEqualTypeOf<Principal>();
      return c.json({ accountId: c.var.auth.accountId, credential: c.var.auth.credential });
    });
    app.post('/deploy', auth.optionalAuth(), (c) => {
      expectTypeOf(c.var.auth).toEqualTypeOf<Principal | null>();
      return c.json({ owner: c.var.auth?.accountId ?? null });
    });
    const res = await app.request('/whoami', { headers: bearer(idp.mintIdToken({ sub: 'acct_h' })) });
    expect(await res.json()).toEqual({ accountId: 'acct_h', credential: 'id_token' });
    expect(await (await app.request('/deploy', { method: 'POST' })).json()).toEqual({ owner: null });
    expect(await snapshotOf(await app.request('/deploy', { method: 'POST', headers: bearer('hp_bad') }))).toEqual(UNIFORM_401);
    expect(await snapshotOf(await app.request('/whoami'))).toEqual(UNIFORM_401);
  });

  it('refuses an API key where only an ID token is accepted', async () => {
    const { auth } = authFor();
    const app = new Hono();
    app.route('/keys', auth.keysRoutes());
    app.get('/account', auth.requireAuth({ accept: ['id_token'] }), (c) => c.json({ ok: true }));
    app.get('/drops', auth.requireAuth(), (c) => c.json({ owner: c.var.auth.accountId }));
    const minted = await app.request('/keys', { method: 'POST', headers: bearer(idp.mintIdToken({ sub: 'acct_k' })) });
    const { apiKey } = (await minted.json()) as { apiKey: string };
    expect(await (await app.request('/drops', { headers: bearer(apiKey) })).json()).toEqual({ owner: 'acct_k' });
    expect(await snapshotOf(await app.request('/account', { headers: bearer(apiKey) }))).toEqual(UNIFORM_401);
  });

  it('serves the key routes under any mount path, path parameters included, and 401s every path below it', async () => {
    const { auth } = authFor();
    const app = new Hono().basePath('/api');
    app.route('/orgs/:org/keys', auth.keysRoutes());
    const token = bearer(idp.mintIdToken({ sub: 'acct_m' }));
    const minted = await app.request('/api/orgs/o1/keys', { method: 'POST', headers: token });
    expect(minted.status).toBe(201);
    const { id } = (await minted.json()) as { id: string };
    const list = (await (await app.request('/api/orgs/o1/keys', { headers: token })).json()) as { keys: { id: string }[] };
    expect(list.keys.map((k) => k.id)).toEqual([id]);
    expect((await app.request(`/api/orgs/o1/keys/${id}`, { method: 'DELETE', headers: token })).status).toBe(204);
    expect((await app.request('/api/orgs/o1/keys/a/b', { headers: token })).status).toBe(404);
    for (const [method, path] of [
      ['PUT', '/api/orgs/o1/keys'],
      ['GET', '/api/orgs/o1/keys/'],
      ['PROPFIND', '/api/orgs/o1/keys/a/b'],
    ]) {
      expect(await snapshotOf(await app.request(path!, { method }))).toEqual(UNIFORM_401);
    }
  });

  it('sets c.var.auth for middleware around the key routes (an access log)', async () => {
    const { auth } = authFor();
    const seen: Array<string | null> = [];
    const app = new Hono<{ Variables: { auth?: Principal | null } }>();
    app.use('*', async (c, next) => {
      await next();
      seen.push(c.var.auth?.accountId ?? null);
    });
    app.route('/keys', auth.keysRoutes());
    await app.request('/keys', { headers: bearer(idp.mintIdToken({ sub: 'acct_log' })) });
    await app.request('/keys');
    expect(seen).toEqual(['acct_log', null]);
  });

  it('takes the client address from clientIp, and none without it', async () => {
    const events = async (clientIp?: () => string | null): Promise<unknown[]> => {
      const { auth, keys } = authFor(clientIp === undefined ? {} : { clientIp });
      const app = new Hono();
      app.route('/keys', auth.keysRoutes());
      const token = idp.mintIdToken({ sub: 'acct_ip' });
      await app.request('/keys', { method: 'POST', headers: { ...bearer(token), 'user-agent': 'drops-cli/1' } });
      const { events: list } = await keys.events({ accountId: 'acct_ip' } as never);
      return list.map((e) => [e.ip, e.userAgent]);
    };
    expect(await events()).toEqual([[null, 'drops-cli/1']]);
    expect(await events(() => '203.0.113.7')).toEqual([['203.0.113.7', 'drops-cli/1']]);
  });

  it('calls onError with every drops-auth error before answering it', async () => {
    const keyStore = new MemoryKeyStore();
    const seen: string[] = [];
    const auth = dropsAuth({
      authenticator: createAuthenticator({
        keyStore,
        idTokenVerifier: createIdTokenVerifier({
          issuer: 'https://issuer.example',
          audience: 'drops',
          jwksUrl: 'https://issuer.example/jwks',
        }),
      }),
      keys: createKeyManager({ keyStore }),
      onError: (error, c) => seen.push(`${error.status} ${c.req.path}`),
    });
    const app = new Hono();
    app.get('/whoami', auth.requireAuth(), (c) => c.text('never'));
    app.route('/keys', auth.keysRoutes());
    await app.request('/whoami');
    await app.request('/keys/x', { method: 'PATCH' });
    expect(seen).toEqual(['401 /whoami', '401 /keys/x']);
  });
});
