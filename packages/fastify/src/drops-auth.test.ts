import {
  BEARER_CHALLENGE,
  UNAUTHENTICATED_MESSAGE,
  createAuthenticator,
  createIdTokenVerifier,
  createKeyManager,
  MemoryKeyStore,
  UnauthenticatedError,
  type DropsAuthError,
  type KeyStore,
} from '@drops/auth';
import { LocalIdentityProvider } from '@drops/auth/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropsAuth } from './drops-auth.js';
import { principalOf } from './principal-of.js';
import { listen, type TestServer } from './test-server.js';

const UNIFORM_401 = JSON.stringify({ error: UNAUTHENTICATED_MESSAGE });

let idp: LocalIdentityProvider;
let server: TestServer;
let failing = false;
const seen: DropsAuthError[] = [];

async function appWith(store: KeyStore): Promise<FastifyInstance> {
  const authenticator = createAuthenticator({ keyStore: store, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) });
  const auth = dropsAuth({ authenticator, keys: createKeyManager({ keyStore: store }), onError: (error) => seen.push(error) });
  const app = Fastify();
  await app.register(auth.keysRoutes, { prefix: '/keys' });
  app.get('/either', { preHandler: auth.requireAuth() }, async (req) => ({
    accountId: principalOf(req).accountId,
    credential: principalOf(req).credential,
  }));
  app.get('/token-only', { preHandler: auth.requireAuth({ accept: ['id_token'] }) }, async (req) => ({
    accountId: principalOf(req).accountId,
  }));
  app.post('/optional', { preHandler: auth.optionalAuth() }, async (req) => ({
    owner: (req.auth as typeof req.auth | null)?.accountId ?? null,
  }));
  app.post('/drops', { onRequest: auth.requireAuth() }, async (req, reply) => reply.code(201).send({ body: req.body }));
  app.get('/boom', { preHandler: auth.requireAuth() }, async () => {
    throw new Error('route failure');
  });
  app.get('/keysx', async () => ({ outside: true }));
  return app;
}

const bearer = (credential: string): { authorization: string } => ({ authorization: `Bearer ${credential}` });

async function mintKey(sub: string): Promise<{ apiKey: string; id: string }> {
  const res = await fetch(`${server.url}/keys`, { method: 'POST', headers: bearer(idp.mintIdToken({ sub })) });
  expect(res.status).toBe(201);
  return (await res.json()) as { apiKey: string; id: string };
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
  const keyStore = new MemoryKeyStore();
  const flaky: KeyStore = new Proxy(keyStore, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        failing ? Promise.reject(new Error('database is down')) : (value as (...a: unknown[]) => unknown).apply(target, args);
    },
  });
  server = await listen(await appWith(flaky));
});

afterAll(async () => {
  await server?.close();
  await idp?.close();
});

describe('requireAuth()', () => {
  it('accepts an API key or an ID token and sets request.auth', async () => {
    const { apiKey } = await mintKey('acct-key');
    const byKey = await fetch(`${server.url}/either`, { headers: bearer(apiKey) });
    expect(await byKey.json()).toEqual({ accountId: 'acct-key', credential: 'api_key' });
    const byToken = await fetch(`${server.url}/either`, { headers: bearer(idp.mintIdToken({ sub: 'u-7' })) });
    expect(await byToken.json()).toEqual({ accountId: 'u-7', credential: 'id_token' });
  });

  it('answers the uniform 401 without a credential, and tells onError', async () => {
    seen.length = 0;
    await expectUniform401(await fetch(`${server.url}/either`));
    expect(seen.map((error) => error.status)).toEqual([401]);
  });

  it('refuses an API key on a route that accepts ID tokens only', async () => {
    const { apiKey } = await mintKey('acct-2');
    await expectUniform401(await fetch(`${server.url}/token-only`, { headers: bearer(apiKey) }));
    const ok = await fetch(`${server.url}/token-only`, { headers: bearer(idp.mintIdToken({ sub: 'u-8' })) });
    expect(await ok.json()).toEqual({ accountId: 'u-8' });
  });

  it('answers 503 with Retry-After, never 401, when the key store is down', async () => {
    const { apiKey } = await mintKey('acct-3');
    failing = true;
    try {
      const res = await fetch(`${server.url}/either`, { headers: bearer(apiKey) });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      failing = false;
    }
  });

  it('leaves errors of the route itself to Fastify', async () => {
    const res = await fetch(`${server.url}/boom`, { headers: bearer(idp.mintIdToken({ sub: 'u-9' })) });
    expect(res.status).toBe(500);
  });

  it('as onRequest, judges the credential before Fastify parses the body: a malformed body is the 401 without one, 400 with one', async () => {
    const malformed = { method: 'POST', body: '{"name": ', headers: { 'content-type': 'application/json' } };
    await expectUniform401(await fetch(`${server.url}/drops`, malformed));
    const signedIn = await fetch(`${server.url}/drops`, {
      ...malformed,
      headers: { ...malformed.headers, ...bearer(idp.mintIdToken({ sub: 'u-10' })) },
    });
    expect(signedIn.status).toBe(400);
    const good = await fetch(`${server.url}/drops`, {
      ...malformed,
      body: '{"a":1}',
      headers: { ...malformed.headers, ...bearer(idp.mintIdToken({ sub: 'u-10' })) },
    });
    expect(await good.json()).toEqual({ body: { a: 1 } });
  });
});

describe('optionalAuth()', () => {
  it('lets a request with no Authorization header through with request.auth null, sets it for a valid credential', async () => {
    expect(await (await fetch(`${server.url}/optional`, { method: 'POST' })).json()).toEqual({ owner: null });
    const res = await fetch(`${server.url}/optional`, { method: 'POST', headers: bearer(idp.mintIdToken({ sub: 'u-11' })) });
    expect(await res.json()).toEqual({ owner: 'u-11' });
  });

  it('refuses a bad credential instead of falling back to anonymous', async () => {
    await expectUniform401(await fetch(`${server.url}/optional`, { method: 'POST', headers: bearer('hp_nope') }));
  });
});

describe('keysRoutes: what the shared suite does not cover', () => {
  it('does not touch routes beside its prefix', async () => {
    expect(await (await fetch(`${server.url}/keysx`)).json()).toEqual({ outside: true });
  });
});

describe("keysRoutes: Fastify's own body parsing never answers for it", () => {
  it("a JSON body Fastify's parser would refuse is the uniform 401 without a credential, the core's JSON 400 or 413 with one", async () => {
    const keyStore = new MemoryKeyStore();
    const auth = dropsAuth({
      authenticator: createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) }),
      keys: createKeyManager({ keyStore }),
    });
    // A tiny app-wide body limit, and the app's own JSON parser that fails on everything.
    const app = Fastify({ bodyLimit: 8 });
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, _body, done) =>
      done(new Error('app parser ran'), undefined),
    );
    await app.register(auth.keysRoutes, { prefix: '/keys', bodyLimit: 64 });
    const keysServer = await listen(app);
    try {
      const json = { 'content-type': 'application/json' };
      const malformed = { method: 'POST', body: '{"name": ', headers: json };
      await expectUniform401(await fetch(`${keysServer.url}/keys`, malformed));
      const signedIn = { ...json, ...bearer(idp.mintIdToken({ sub: 'u-12' })) };
      const bad = await fetch(`${keysServer.url}/keys`, { ...malformed, headers: signedIn });
      expect(bad.status).toBe(400);
      expect(bad.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await bad.json()) as unknown).toEqual({ error: expect.stringMatching(/JSON/) as unknown });
      const big = await fetch(`${keysServer.url}/keys`, {
        method: 'POST',
        body: JSON.stringify({ name: 'x'.repeat(100) }),
        headers: signedIn,
      });
      expect(big.status).toBe(413);
      const minted = await fetch(`${keysServer.url}/keys`, { method: 'POST', body: '{"name":"ci-main"}', headers: signedIn });
      expect(minted.status).toBe(201);
      expect(((await minted.json()) as { name: string }).name).toBe('ci-main');
    } finally {
      await keysServer.close();
    }
  });
});

describe('principalOf()', () => {
  it('throws the uniform 401 (UnauthenticatedError) when no requireAuth() ran', () => {
    expect(() => principalOf({} as never)).toThrow(UnauthenticatedError);
    expect(() => principalOf({ auth: null } as never)).toThrow(UnauthenticatedError);
  });
});

describe('options are checked at creation', () => {
  const keyStore = new MemoryKeyStore();
  const authenticator = createAuthenticator({ keyStore });
  const auth = dropsAuth({ authenticator, keys: createKeyManager({ keyStore }) });

  it('throws TypeError for a missing authenticator, bad keys or unknown options', () => {
    expect(() => dropsAuth({} as never)).toThrow(TypeError);
    expect(() => dropsAuth({ authenticator, keys: {} as never })).toThrow(TypeError);
    expect(() => dropsAuth({ authenticator, errorMode: 'json' } as never)).toThrow(TypeError);
  });

  it('throws TypeError for a bad accept list or an unknown option when a hook is built', () => {
    expect(() => auth.requireAuth({ accept: ['password'] } as never)).toThrow(TypeError);
    expect(() => auth.requireAuth({ accept: [] })).toThrow(TypeError);
    expect(() => auth.optionalAuth({ acept: ['id_token'] } as never)).toThrow(/unknown option "acept"/);
  });

  it('rejects a keysRoutes registration without keys, without a fixed prefix or with an unknown option', async () => {
    await expect(Fastify().register(dropsAuth({ authenticator }).keysRoutes, { prefix: '/keys' })).rejects.toThrow(TypeError);
    await expect(Fastify().register(auth.keysRoutes)).rejects.toThrow(/prefix/);
    await expect(Fastify().register(auth.keysRoutes, { prefix: '/:tenant/keys' })).rejects.toThrow(/prefix/);
    await expect(Fastify().register(auth.keysRoutes, { prefix: '/keys', limit: 1 } as never)).rejects.toThrow(/unknown option "limit"/);
    await expect(Fastify().register(auth.keysRoutes, { prefix: '/keys', bodyLimit: 0 })).rejects.toThrow(TypeError);
  });

  it('refuses routes that need an ID token over an authenticator that cannot verify one', async () => {
    // `authenticator` here has no idTokenVerifier: every mint, and every ID-token-only route, would be a 401.
    await expect(Fastify().register(auth.keysRoutes, { prefix: '/keys' })).rejects.toThrow(
      /^keysRoutes: the authenticator has no idTokenVerifier/,
    );
    expect(() => auth.requireAuth({ accept: ['id_token'] })).toThrow(/^requireAuth\(\): the authenticator has no idTokenVerifier/);
    expect(() => auth.requireAuth()).not.toThrow();
  });
});
