import { request } from 'node:http';
import {
  BEARER_CHALLENGE,
  UNAUTHENTICATED_MESSAGE,
  UnauthenticatedError,
  createAuthenticator,
  createIdTokenVerifier,
  createKeyManager,
  respondWithError,
  MemoryKeyStore,
  type KeyStore,
  type Principal,
} from '@drops/auth';
import { LocalIdentityProvider } from '@drops/auth/testing';
import Router from '@koa/router';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropsAuth } from './drops-auth.js';
import { principalOf } from './principal-of.js';
import { listen, type TestServer } from './test-server.js';

const UNIFORM_401 = JSON.stringify({ error: UNAUTHENTICATED_MESSAGE });

let idp: LocalIdentityProvider;
let server: TestServer;
let keyStore: MemoryKeyStore;
let failing = false;

function appWith(store: KeyStore): Koa {
  const authenticator = createAuthenticator({
    keyStore: store,
    idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }),
  });
  const auth = dropsAuth({ authenticator, keys: createKeyManager({ keyStore: store }) });
  const router = new Router();
  router.get('/either', auth.requireAuth(), (ctx) => {
    ctx.body = { accountId: ctx.state.auth.accountId, credential: ctx.state.auth.credential };
  });
  router.get('/token-only', auth.requireAuth({ accept: ['id_token'] }), (ctx) => {
    ctx.body = { accountId: ctx.state.auth.accountId, sub: ctx.state.auth.claims?.sub };
  });
  router.post('/optional', auth.optionalAuth(), (ctx) => {
    ctx.body = { owner: ctx.state.auth?.accountId ?? null };
  });
  router.get('/boom', auth.requireAuth(), () => {
    throw new Error('route failure');
  });
  const app = new Koa();
  app.silent = true;
  app.use(auth.keysRouter().routes());
  app.use(router.routes()).use(router.allowedMethods());
  return app;
}

function bearer(credential: string): { authorization: string } {
  return { authorization: `Bearer ${credential}` };
}

async function mintKey(sub = 'acct-1', name?: string): Promise<{ apiKey: string; id: string; prefix: string }> {
  const res = await fetch(`${server.url}/keys`, {
    method: 'POST',
    headers: { ...bearer(idp.mintIdToken({ sub })), 'content-type': 'application/json' },
    body: name === undefined ? undefined : JSON.stringify({ name }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { apiKey: string; id: string; prefix: string };
}

async function expectUniform401(res: Response): Promise<void> {
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toBe(BEARER_CHALLENGE);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(await res.text()).toBe(UNIFORM_401);
}

beforeAll(async () => {
  idp = await LocalIdentityProvider.start();
  keyStore = new MemoryKeyStore();
  const flaky: KeyStore = new Proxy(keyStore, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (failing) return Promise.reject(new Error('database is down'));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  server = await listen(appWith(flaky));
});

afterAll(async () => {
  await server?.close();
  await idp?.close();
});

describe('requireAuth()', () => {
  it('sets Drops-Key-Expiration for a key expiring within 7 days, not for one without expiry nor an ID token', async () => {
    const expiresAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const minted = await fetch(`${server.url}/keys`, {
      method: 'POST',
      headers: { ...bearer(idp.mintIdToken({ sub: 'acct-expiring' })), 'content-type': 'application/json' },
      body: JSON.stringify({ expiresAt }),
    });
    expect(minted.status).toBe(201);
    const { apiKey } = (await minted.json()) as { apiKey: string };
    const warned = await fetch(`${server.url}/either`, { headers: bearer(apiKey) });
    expect(warned.status).toBe(200);
    expect(warned.headers.get('drops-key-expiration')).toBe(expiresAt);
    const lasting = await mintKey('acct-expiring');
    expect((await fetch(`${server.url}/either`, { headers: bearer(lasting.apiKey) })).headers.get('drops-key-expiration')).toBeNull();
    const byToken = await fetch(`${server.url}/either`, { headers: bearer(idp.mintIdToken({ sub: 'acct-expiring' })) });
    expect(byToken.headers.get('drops-key-expiration')).toBeNull();
  });

  it('accepts an API key and sets ctx.state.auth', async () => {
    const { apiKey, id } = await mintKey('acct-key');
    const res = await fetch(`${server.url}/either`, { headers: bearer(apiKey) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accountId: 'acct-key', credential: 'api_key' });
    expect(id).toMatch(/^[0-9a-f]{64}$/);
  });

  it('accepts an ID token', async () => {
    const res = await fetch(`${server.url}/either`, { headers: bearer(idp.mintIdToken({ sub: 'u-7' })) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accountId: 'u-7', credential: 'id_token' });
  });

  it('answers the uniform 401 for missing, malformed, unknown, revoked and expired credentials', async () => {
    const { apiKey, id } = await mintKey('acct-revoke');
    const revoke = await fetch(`${server.url}/keys/${id}`, { method: 'DELETE', headers: bearer(apiKey) });
    expect(revoke.status).toBe(204);
    const cases: Array<Record<string, string>> = [
      {},
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer' },
      bearer('hp_short'),
      bearer(`hp_${'A'.repeat(43)}`),
      bearer(apiKey),
      bearer(idp.mintIdToken({ exp: Math.floor(Date.now() / 1000) - 60, iat: Math.floor(Date.now() / 1000) - 120 })),
      bearer('not.a.jwt'),
    ];
    for (const headers of cases) await expectUniform401(await fetch(`${server.url}/either`, { headers }));
  });

  it('sends the same bytes as the core Web adapter', async () => {
    const reference = respondWithError(new UnauthenticatedError('missing'));
    const res = await fetch(`${server.url}/either`);
    expect(res.status).toBe(reference.status);
    expect(await res.text()).toBe(await reference.text());
    for (const [name, value] of reference.headers) expect(res.headers.get(name)).toBe(value);
  });

  it('refuses an API key on a route that accepts ID tokens only', async () => {
    const { apiKey } = await mintKey('acct-2');
    await expectUniform401(await fetch(`${server.url}/token-only`, { headers: bearer(apiKey) }));
    const ok = await fetch(`${server.url}/token-only`, { headers: bearer(idp.mintIdToken({ sub: 'u-8' })) });
    expect(await ok.json()).toEqual({ accountId: 'u-8', sub: 'u-8' });
  });

  it('answers 503 with Retry-After, never 401, when the key store is down', async () => {
    const { apiKey } = await mintKey('acct-3');
    failing = true;
    try {
      const res = await fetch(`${server.url}/either`, { headers: bearer(apiKey) });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(await res.json()).toEqual({ error: expect.any(String) });
    } finally {
      failing = false;
    }
  });

  it('refuses a repeated Authorization header, even when the first value is valid', async () => {
    const { apiKey } = await mintKey('acct-repeat');
    const statusWith = (values: string[]): Promise<number> =>
      new Promise((resolve, reject) => {
        // node:http sends an array value as repeated header lines, as a smuggling client would.
        const req = request(
          `${server.url}/either`,
          { headers: ['host', 'localhost', ...values.flatMap((v) => ['authorization', v])] },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject).end();
      });
    expect(await statusWith([`Bearer ${apiKey}`])).toBe(200);
    expect(await statusWith([`Bearer ${apiKey}`, 'Bearer hp_other'])).toBe(401);
  });

  it('leaves errors of the route itself to Koa', async () => {
    const res = await fetch(`${server.url}/boom`, { headers: bearer(idp.mintIdToken()) });
    expect(res.status).toBe(500);
  });
});

describe('optionalAuth()', () => {
  it('lets a request with no Authorization header through with ctx.state.auth null', async () => {
    const res = await fetch(`${server.url}/optional`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ owner: null });
  });

  it('sets ctx.state.auth for a valid credential', async () => {
    const { apiKey } = await mintKey('acct-opt');
    const res = await fetch(`${server.url}/optional`, { method: 'POST', headers: bearer(apiKey) });
    expect(await res.json()).toEqual({ owner: 'acct-opt' });
  });

  it('refuses a bad credential instead of falling back to anonymous', async () => {
    await expectUniform401(await fetch(`${server.url}/optional`, { method: 'POST', headers: bearer('hp_nope') }));
    await expectUniform401(await fetch(`${server.url}/optional`, { method: 'POST', headers: { authorization: '' } }));
  });
});

describe('keysRouter(): what the shared suite does not cover', () => {
  it('uses ctx.request.body when a body parser ran first', async () => {
    const store = new MemoryKeyStore();
    const auth = dropsAuth({
      authenticator: createAuthenticator({ keyStore: store, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) }),
      keys: createKeyManager({ keyStore: store }),
    });
    const app = new Koa();
    app.use(async (ctx, next) => {
      (ctx.request as { body?: unknown }).body = { name: 'from-parser' };
      await next();
    });
    app.use(auth.keysRouter().routes());
    const parsed = await listen(app);
    try {
      const res = await fetch(`${parsed.url}/keys`, { method: 'POST', headers: bearer(idp.mintIdToken()) });
      expect(res.status).toBe(201);
      expect(((await res.json()) as { name: string }).name).toBe('from-parser');
    } finally {
      await parsed.close();
    }
  });

  it('does not touch routes outside /keys', async () => {
    const res = await fetch(`${server.url}/keysmith`);
    expect(res.status).toBe(404);
  });
});

describe('options are checked at creation', () => {
  const authenticator = createAuthenticator({ keyStore: new MemoryKeyStore() });

  it('throws TypeError for a missing authenticator, bad keys or unknown options', () => {
    expect(() => dropsAuth({} as never)).toThrow(TypeError);
    expect(() => dropsAuth(undefined as never)).toThrow(TypeError);
    expect(() => dropsAuth({ authenticator, keys: {} as never })).toThrow(TypeError);
    expect(() => dropsAuth({ authenticator, keyStore: {} } as never)).toThrow(/unknown option "keyStore"/);
    expect(() => dropsAuth({ authenticator, onError: 'log' as never })).toThrow(TypeError);
  });

  it('throws TypeError for a bad accept list when the middleware is built', () => {
    const auth = dropsAuth({ authenticator });
    expect(() => auth.requireAuth({ accept: [] })).toThrow(TypeError);
    expect(() => auth.requireAuth({ accept: ['password' as never] })).toThrow(TypeError);
    expect(() => auth.optionalAuth({ accepts: ['id_token'] } as never)).toThrow(/unknown option "accepts"/);
  });

  it('throws TypeError from keysRouter() without keys', () => {
    expect(() => dropsAuth({ authenticator }).keysRouter()).toThrow(/createKeyManager/);
    const withKeys = dropsAuth({ authenticator, keys: createKeyManager({ keyStore: new MemoryKeyStore() }) });
    expect(() => withKeys.keysRouter({ bodyLimit: 0 })).toThrow(TypeError);
    expect(() => withKeys.keysRouter({ limit: 10 } as never)).toThrow(/unknown option "limit"/);
  });
});

describe('principalOf()', () => {
  it('reads ctx.state.auth as a Principal after requireAuth(), typed with no `!`', async () => {
    const store = new MemoryKeyStore();
    const auth = dropsAuth({
      authenticator: createAuthenticator({ keyStore: store, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) }),
    });
    const app = new Koa();
    app.silent = true;
    app.use(auth.requireAuth());
    app.use((ctx) => {
      const principal: Principal = principalOf(ctx);
      ctx.body = { accountId: principal.accountId };
    });
    const plain = await listen(app);
    try {
      const res = await fetch(plain.url, { headers: bearer(idp.mintIdToken({ sub: 'typed' })) });
      expect(await res.json()).toEqual({ accountId: 'typed' });
      expect((await fetch(plain.url)).status).toBe(401);
    } finally {
      await plain.close();
    }
  });

  it('throws the uniform 401 when no requireAuth() ran', () => {
    expect(() => principalOf({ state: {} })).toThrow(UnauthenticatedError);
    expect(() => principalOf({ state: { auth: null } })).toThrow(UnauthenticatedError);
  });
});
