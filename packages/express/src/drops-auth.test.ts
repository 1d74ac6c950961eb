import { createAuthenticator, createIdTokenVerifier, createKeyManager, MemoryKeyStore, type KeyStore, type Principal } from '@drops/auth';
import { request } from 'node:http';
import { LocalIdentityProvider, snapshotOf, UNIFORM_401, type AnswerSnapshot } from '@drops/auth/testing';
import express, { type ErrorRequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropsAuth, principalOf } from './index.js';
import { listen, type TestServer } from './test-server.js';

let idp: LocalIdentityProvider;
let server: TestServer;
let keyStore: MemoryKeyStore;

function buildApp(store: KeyStore): express.Express {
  const authenticator = createAuthenticator({
    keyStore: store,
    idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }),
  });
  const auth = dropsAuth({ authenticator, keys: createKeyManager({ keyStore: store }) });
  const app = express();
  app.use('/keys', auth.keysRouter());
  app.get('/whoami', auth.requireAuth(), (req, res) => {
    res.json({ accountId: req.auth?.accountId, credential: req.auth?.credential });
  });
  app.get('/token-only', auth.requireAuth({ accept: ['id_token'] }), (_req, res) => {
    res.json({ ok: true });
  });
  app.post('/deploy', auth.optionalAuth(), (req, res) => {
    res.status(201).json({ owner: req.auth?.accountId ?? null, anonymous: req.auth === null });
  });
  app.get('/boom', auth.requireAuth(), () => {
    throw new Error('not a drops error');
  });
  app.use(auth.errorHandler());
  const fallback: ErrorRequestHandler = (err: Error, _req, res, _next) => {
    res.status(500).json({ fallback: err.message });
  };
  app.use(fallback);
  return app;
}

beforeAll(async () => {
  idp = await LocalIdentityProvider.start();
  keyStore = new MemoryKeyStore();
  server = await listen(buildApp(keyStore));
});

afterAll(async () => {
  await server?.close();
  await idp?.close();
});

const bearer = (credential: string): Record<string, string> => ({ authorization: `Bearer ${credential}` });

async function mint(sub = 'user-1', name?: string): Promise<{ apiKey: string; id: string }> {
  const res = await fetch(`${server.url}/keys`, {
    method: 'POST',
    headers: { ...bearer(idp.mintIdToken({ sub })), 'content-type': 'application/json' },
    body: name === undefined ? undefined : JSON.stringify({ name }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { apiKey: string; id: string };
}

describe('the uniform 401', () => {
  it('is byte-identical for missing, malformed, unknown, revoked, expired and wrong-type credentials on every route', async () => {
    const revoked = await mint('user-401');
    const token = idp.mintIdToken({ sub: 'user-401' });
    const del = await fetch(`${server.url}/keys/${revoked.id}`, { method: 'DELETE', headers: bearer(token) });
    expect(del.status).toBe(204);
    const live = await mint('user-401');
    const unknown = `hp_${'A'.repeat(43)}`;

    const credentials: Array<Record<string, string>> = [
      {},
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer a b' },
      { authorization: 'Bearer hp_short' },
      bearer(unknown),
      bearer(revoked.apiKey),
      bearer(idp.mintIdToken({ sub: 'u' }, { expiresInSeconds: -60 })),
      bearer(idp.mintIdToken({ aud: 'someone-else' })),
      bearer('not.a.jwt'),
    ];
    const routes: Array<[string, string]> = [
      ['GET', '/whoami'],
      ['GET', '/keys'],
      ['POST', '/keys'],
      ['PUT', '/keys'],
      ['DELETE', '/keys/abc'],
      ['PATCH', '/keys/abc/def'],
      ['GET', '/keys/nothing/here'],
    ];
    const seen: AnswerSnapshot[] = [];
    for (const [method, path] of routes) {
      for (const headers of credentials) {
        seen.push(await snapshotOf(await fetch(`${server.url}${path}`, { method, headers })));
      }
    }
    // Wrong type: an API key minting, an API key on an ID-token-only route; a bad header on an optional route.
    seen.push(await snapshotOf(await fetch(`${server.url}/keys`, { method: 'POST', headers: bearer(live.apiKey) })));
    seen.push(await snapshotOf(await fetch(`${server.url}/token-only`, { headers: bearer(live.apiKey) })));
    seen.push(await snapshotOf(await fetch(`${server.url}/deploy`, { method: 'POST', headers: bearer(unknown) })));

    // Status, body bytes and every header that could tell failures apart (no ETag from Express).
    for (const s of seen) expect(s).toEqual(UNIFORM_401);
  });
});

describe('requireAuth and optionalAuth', () => {
  it('set Drops-Key-Expiration for a key expiring within 7 days, not for one without expiry nor an ID token', async () => {
    const expiresAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const minted = await fetch(`${server.url}/keys`, {
      method: 'POST',
      headers: { ...bearer(idp.mintIdToken({ sub: 'user-expiring' })), 'content-type': 'application/json' },
      body: JSON.stringify({ expiresAt }),
    });
    expect(minted.status).toBe(201);
    const { apiKey } = (await minted.json()) as { apiKey: string };
    for (const [method, path] of [
      ['GET', '/whoami'],
      ['POST', '/deploy'],
    ] as const) {
      const warned = await fetch(`${server.url}${path}`, { method, headers: bearer(apiKey) });
      expect(warned.headers.get('drops-key-expiration'), path).toBe(expiresAt);
    }
    const lasting = await mint('user-expiring');
    expect((await fetch(`${server.url}/whoami`, { headers: bearer(lasting.apiKey) })).headers.get('drops-key-expiration')).toBeNull();
    const byToken = await fetch(`${server.url}/whoami`, { headers: bearer(idp.mintIdToken({ sub: 'user-expiring' })) });
    expect(byToken.headers.get('drops-key-expiration')).toBeNull();
  });

  it('sets req.auth for an API key and for an ID token', async () => {
    const { apiKey, id } = await mint('user-who');
    const byKey = await fetch(`${server.url}/whoami`, { headers: bearer(apiKey) });
    expect(await byKey.json()).toEqual({ accountId: 'user-who', credential: 'api_key' });
    const byToken = await fetch(`${server.url}/whoami`, { headers: bearer(idp.mintIdToken({ sub: 'user-who' })) });
    expect(await byToken.json()).toEqual({ accountId: 'user-who', credential: 'id_token' });
    expect(id).toMatch(/^[0-9a-f]{64}$/);
  });

  it('lets an anonymous request through optionalAuth, and an authenticated one with its principal', async () => {
    const anonymous = await fetch(`${server.url}/deploy`, { method: 'POST' });
    expect(anonymous.status).toBe(201);
    expect(await anonymous.json()).toEqual({ owner: null, anonymous: true });
    const { apiKey } = await mint('user-deploy');
    const owned = await fetch(`${server.url}/deploy`, { method: 'POST', headers: bearer(apiKey) });
    expect(await owned.json()).toEqual({ owner: 'user-deploy', anonymous: false });
  });

  it('refuses a repeated Authorization header, even when the first value is valid', async () => {
    const { apiKey } = await mint('user-repeat');
    const statusWith = (values: string[]): Promise<number> =>
      new Promise((resolve, reject) => {
        // node:http sends an array value as repeated header lines, as a smuggling client would.
        const req = request(
          `${server.url}/whoami`,
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
    expect(await statusWith(['Bearer hp_other', `Bearer ${apiKey}`])).toBe(401);
  });

  it('passes errors that are not drops-auth errors on to the next handler', async () => {
    const res = await fetch(`${server.url}/boom`, { headers: bearer(idp.mintIdToken()) });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ fallback: 'not a drops error' });
  });

  it('checks options when the middleware is created', () => {
    const authenticator = createAuthenticator({ keyStore: new MemoryKeyStore() });
    expect(() => dropsAuth({ authenticator }).requireAuth({ accept: [] })).toThrow(TypeError);
    expect(() => dropsAuth({ authenticator }).optionalAuth({ accept: ['password' as 'api_key'] })).toThrow(TypeError);
    expect(() => dropsAuth({ authenticator }).requireAuth({ accept: ['id_token'], optional: true } as never)).toThrow(
      /unknown option "optional"/,
    );
    expect(() => dropsAuth({ authenticator: {} as typeof authenticator })).toThrow(TypeError);
    expect(() => dropsAuth({} as never)).toThrow(TypeError);
    expect(() => dropsAuth({ authenticator, errorMode: 'next' } as never)).toThrow(/unknown option "errorMode"/);
    expect(() => dropsAuth({ authenticator, onError: 'x' as never })).toThrow(TypeError);
    expect(() => dropsAuth({ authenticator, keys: {} as never })).toThrow(TypeError);
    expect(() => dropsAuth({ authenticator }).keysRouter()).toThrow(TypeError);
    expect(() => dropsAuth({ authenticator }).requireAuth({ accept: ['id_token', 'nope' as 'id_token'] })).toThrow(TypeError);
    expect(() => dropsAuth({ authenticator }).errorHandler({ onError: () => {} } as never)).toThrow(/unknown option "onError"/);
    expect(() => dropsAuth({ authenticator }).keysRouter({ limit: 1 } as never)).toThrow(TypeError);
  });

  it('refuses, when created, routes that need an ID token over an authenticator that cannot verify one', () => {
    const keyStore = new MemoryKeyStore();
    const auth = dropsAuth({ authenticator: createAuthenticator({ keyStore }), keys: createKeyManager({ keyStore }) });
    expect(() => auth.keysRouter()).toThrow(/^keysRouter: the authenticator has no idTokenVerifier/);
    expect(() => auth.requireAuth({ accept: ['id_token'] })).toThrow(/^requireAuth: the authenticator has no idTokenVerifier/);
    expect(() => auth.optionalAuth({ accept: ['id_token'] })).toThrow(TypeError);
    // API keys alone need no identity provider.
    expect(() => auth.requireAuth()).not.toThrow();
    expect(() => auth.requireAuth({ accept: ['api_key'] })).not.toThrow();
  });
});

describe('without errorHandler()', () => {
  it('still answers the uniform JSON 401 and the 503, never HTML or a stack trace', async () => {
    const down = (): Promise<never> => Promise.reject(new Error('db down'));
    const broken: KeyStore = {
      create: down,
      createWithinLimit: down,
      findActive: down,
      listByAccount: down,
      revoke: down,
      revokeMany: down,
      roll: down,
      revokeAll: down,
      listEvents: down,
      recordUse: () => {},
      now: () => Date.now(),
      recordExpired: () => {},
      close: () => Promise.resolve(),
      recordRevocationRequest: down,
      pendingRevocationRequests: down,
      completeRevocationRequest: down,
    };
    const authenticator = createAuthenticator({ keyStore: broken, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) });
    const auth = dropsAuth({ authenticator, keys: createKeyManager({ keyStore: broken }) });
    const app = express();
    app.use('/keys', auth.keysRouter());
    app.get('/whoami', auth.requireAuth(), (req, res) => {
      // Typed as a Principal in strict TS, no `!`.
      const principal: Principal = principalOf(req);
      res.json({ accountId: principal.accountId });
    });
    app.get('/standalone', dropsAuth({ authenticator }).requireAuth(), (_req, res) => {
      res.json({});
    });
    const bare = await listen(app);
    try {
      expect(await snapshotOf(await fetch(`${bare.url}/whoami`))).toEqual(UNIFORM_401);
      expect(await snapshotOf(await fetch(`${bare.url}/standalone`, { headers: bearer('hp_nope') }))).toEqual(UNIFORM_401);
      for (const path of ['/whoami', '/standalone', '/keys']) {
        const res = await fetch(`${bare.url}${path}`, { headers: bearer(`hp_${'B'.repeat(42)}A`) });
        expect(res.status, path).toBe(503);
        expect(res.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
        expect(res.headers.get('retry-after'), path).toMatch(/^\d+$/);
        const text = await res.text();
        expect(text, path).not.toMatch(/<html|at .*\.ts:\d+/i);
        expect(typeof (JSON.parse(text) as { error: unknown }).error).toBe('string');
      }
      const works = await fetch(`${bare.url}/whoami`, { headers: bearer(idp.mintIdToken({ sub: 'no-handler' })) });
      expect(await works.json()).toEqual({ accountId: 'no-handler' });
    } finally {
      await bare.close();
    }
  });
});

describe('when the key store is down', () => {
  it('answers 503 with Retry-After, never 401 or success', async () => {
    const fail = (): Promise<never> => Promise.reject(new Error('db down'));
    const broken: KeyStore = {
      create: fail,
      createWithinLimit: fail,
      findActive: fail,
      listByAccount: fail,
      revoke: fail,
      revokeMany: fail,
      roll: fail,
      revokeAll: fail,
      listEvents: fail,
      recordUse: () => {},
      now: () => Date.now(),
      recordExpired: () => {},
      close: () => Promise.resolve(),
      recordRevocationRequest: fail,
      pendingRevocationRequests: fail,
      completeRevocationRequest: fail,
    };
    const down = await listen(buildApp(broken));
    try {
      const byKey = await fetch(`${down.url}/whoami`, { headers: bearer(`hp_${'B'.repeat(42)}A`) });
      expect(byKey.status).toBe(503);
      expect(byKey.headers.get('retry-after')).toMatch(/^\d+$/);
      const body = (await byKey.json()) as { error: string };
      expect(typeof body.error).toBe('string');

      const token = idp.mintIdToken({ sub: 'user-503' });
      const list = await fetch(`${down.url}/keys`, { headers: bearer(token) });
      expect(list.status).toBe(503);
      const minted = await fetch(`${down.url}/keys`, { method: 'POST', headers: bearer(token) });
      expect(minted.status).toBe(503);
      const revoked = await fetch(`${down.url}/keys/${'a'.repeat(64)}`, { method: 'DELETE', headers: bearer(token) });
      expect(revoked.status).toBe(503);
    } finally {
      await down.close();
    }
  });
});

describe('an authenticator that throws instead of rejecting', () => {
  it('is a failure handed to the next error handler, never a crash or a success', async () => {
    const real = createAuthenticator({ keyStore: new MemoryKeyStore() });
    // Copied with a method replaced: the copy's own authenticate is what runs.
    const throwing = {
      ...real,
      authenticate: (): Promise<Principal> => {
        throw new Error('broken authenticator');
      },
    };
    const app = express();
    app.get('/whoami', dropsAuth({ authenticator: throwing }).requireAuth(), (_req, res) => {
      res.json({ reached: true });
    });
    const fallback: ErrorRequestHandler = (err: Error, _req, res, _next) => {
      res.status(500).json({ fallback: err.message });
    };
    app.use(fallback);
    const broken = await listen(app);
    try {
      const res = await fetch(`${broken.url}/whoami`, { headers: bearer(`hp_${'C'.repeat(43)}`) });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ fallback: 'broken authenticator' });
    } finally {
      await broken.close();
    }
  });
});
