import type { Principal as DropsPrincipal, KeyStore } from '@drops/auth';
import { createAuthenticator, createIdTokenVerifier, createKeyManager, MemoryKeyStore, NotFoundError } from '@drops/auth';
import { LocalIdentityProvider } from '@drops/auth/testing';
import { Controller, Get, Module, UseGuards } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DropsAuthGuard, DropsIdTokenGuard } from './drops-auth.guard.js';
import { DropsAuthModule } from './drops-auth.module.js';
import { Principal } from './principal.decorator.js';
import { listenNest, PLATFORMS, type TestServer } from './test-app.js';

@Controller()
class AccountController {
  @Get('either')
  @UseGuards(DropsAuthGuard)
  either(@Principal() principal: DropsPrincipal) {
    return { accountId: principal.accountId, credential: principal.credential };
  }

  @Get('token-only')
  @UseGuards(DropsIdTokenGuard)
  tokenOnly(@Principal() principal: DropsPrincipal) {
    return { accountId: principal.accountId, credential: principal.credential };
  }

  @Get('missing')
  @UseGuards(DropsAuthGuard)
  missing(): never {
    throw new NotFoundError('no such drop');
  }
}

describe('DropsAuthModule.forRoot() options', () => {
  const keyStore = new MemoryKeyStore();
  const authenticator = createAuthenticator({
    keyStore,
    idTokenVerifier: createIdTokenVerifier({ issuer: 'https://issuer.example', audience: 'drops', jwksUrl: 'https://issuer.example/jwks' }),
  });
  const keys = createKeyManager({ keyStore });

  it.each([
    ['an unknown option', { authenticator, keys, keyPath: 'keys' }],
    ['no authenticator', { keys }],
    ['keysPath without keys', { authenticator, keysPath: 'keys' }],
    ['keyRoutes without keys', { authenticator, keyRoutes: { bodyLimit: 10 } }],
    ['a keysPath that is not a path', { authenticator, keys, keysPath: 'keys/*' }],
    ['an empty keysPath', { authenticator, keys, keysPath: '/' }],
    ['an unknown key route option', { authenticator, keys, keyRoutes: { limit: 10 } }],
  ])('throws a TypeError at start-up for %s', (_what, options) => {
    expect(() => DropsAuthModule.forRoot(options as never)).toThrow(TypeError);
  });

  it('refuses the /keys routes over an authenticator that cannot verify ID tokens', () => {
    expect(() => DropsAuthModule.forRoot({ authenticator: createAuthenticator({ keyStore }), keys })).toThrow(
      /^DropsAuthModule\.forRoot\(\): the authenticator has no idTokenVerifier/,
    );
  });

  it('refuses to create an app whose DropsIdTokenGuard sits over an authenticator that cannot verify ID tokens', async () => {
    @Controller()
    class AccountController {
      @Get('account')
      @UseGuards(DropsIdTokenGuard)
      account() {
        return {};
      }
    }
    @Module({ imports: [DropsAuthModule.forRoot({ authenticator: createAuthenticator({ keyStore }) })], controllers: [AccountController] })
    class AppModule {}
    await expect(listenNest(AppModule, 'express')).rejects.toThrow(/^DropsIdTokenGuard: the authenticator has no idTokenVerifier/);
  });

  it('takes a nested keysPath, slashes trimmed', () => {
    expect(() => DropsAuthModule.forRoot({ authenticator, keys, keysPath: '/api/keys/' })).not.toThrow();
  });
});

describe.each(PLATFORMS)('DropsAuthGuard and DropsIdTokenGuard, platform-%s', (platform) => {
  let idp: LocalIdentityProvider;
  let server: TestServer;
  let failing = false;

  beforeAll(async () => {
    idp = await LocalIdentityProvider.start();
    const flaky: KeyStore = new Proxy(new MemoryKeyStore(), {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (failing) return Promise.reject(new Error('database is down'));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    @Module({
      imports: [
        DropsAuthModule.forRoot({
          authenticator: createAuthenticator({ keyStore: flaky, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) }),
          keys: createKeyManager({ keyStore: flaky }),
          keysPath: 'api/keys',
        }),
      ],
      controllers: [AccountController],
    })
    class AppModule {}
    server = await listenNest(AppModule, platform);
  });

  afterAll(async () => {
    await server?.close();
    await idp?.close();
  });

  const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });

  async function mintKey(sub: string, expiresAt?: string): Promise<string> {
    const res = await fetch(`${server.url}/api/keys`, {
      method: 'POST',
      headers: { ...bearer(idp.mintIdToken({ sub })), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ci', ...(expiresAt === undefined ? {} : { expiresAt }) }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { apiKey: string }).apiKey;
  }

  it("warns a key expiring within 7 days with Drops-Key-Expiration, on the route's answer and on a drops-auth error it throws", async () => {
    const expiresAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const expiring = await mintKey('acct-expiring', expiresAt);
    const ok = await fetch(`${server.url}/either`, { headers: bearer(expiring) });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('drops-key-expiration')).toBe(expiresAt);
    const notFound = await fetch(`${server.url}/missing`, { headers: bearer(expiring) });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('drops-key-expiration')).toBe(expiresAt);
    const lasting = await mintKey('acct-expiring');
    for (const credential of [lasting, idp.mintIdToken({ sub: 'acct-expiring' })]) {
      expect((await fetch(`${server.url}/either`, { headers: bearer(credential) })).headers.get('drops-key-expiration')).toBeNull();
    }
    const refused = await fetch(`${server.url}/token-only`, { headers: bearer(expiring) });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('drops-key-expiration')).toBeNull();
  });

  it('lets an API key through DropsAuthGuard, with its principal, and refuses it on DropsIdTokenGuard', async () => {
    const apiKey = await mintKey('acct-key');
    const either = await fetch(`${server.url}/either`, { headers: bearer(apiKey) });
    expect(either.status).toBe(200);
    expect(await either.json()).toMatchObject({ accountId: 'acct-key', credential: 'api_key' });
    const tokenOnly = await fetch(`${server.url}/token-only`, { headers: bearer(apiKey) });
    expect(tokenOnly.status).toBe(401);
  });

  it('lets an ID token through DropsIdTokenGuard', async () => {
    const res = await fetch(`${server.url}/token-only`, { headers: bearer(idp.mintIdToken({ sub: 'acct-person' })) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ accountId: 'acct-person', credential: 'id_token' });
  });

  it('answers 503 with Retry-After, never a 401 or a success, when the key store cannot answer', async () => {
    const apiKey = await mintKey('acct-down');
    failing = true;
    try {
      for (const path of ['/either', '/api/keys']) {
        const res = await fetch(`${server.url}${path}`, { headers: bearer(apiKey) });
        expect(res.status, path).toBe(503);
        expect(res.headers.get('retry-after'), path).toBe('5');
        expect(await res.json(), path).toEqual({ error: expect.any(String) });
      }
    } finally {
      failing = false;
    }
  });

  it("answers an unknown path under the keys path without a credential with the 401, not Nest's 404", async () => {
    const res = await fetch(`${server.url}/api/keys/no/such/thing`, { method: 'PATCH' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });
});
