import { createAuthenticator, createIdTokenVerifier, createKeyManager, MemoryKeyStore } from '@drops/auth';
import { LocalIdentityProvider } from '@drops/auth/testing';
import { describeKeyRoutes, type KeyRoutesApp } from '@drops/auth/testing/conformance';
import express from 'express';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dropsAuth } from './index.js';
import { listen } from './test-server.js';

const api = { describe, it, beforeEach, afterEach, beforeAll, afterAll };
const major = process.env['EXPRESS_MAJOR'] ?? '5';

describeKeyRoutes(api, `dropsAuth().keysRouter() (Express ${major})`, {
  serve: ({ authenticator, keys, keyRoutes }) => {
    const app = express();
    app.use('/keys', dropsAuth({ authenticator, keys }).keysRouter(keyRoutes));
    return listen(app);
  },
});

/** An app that parses every body before drops' routes, as many do, with drops' errorHandler(). */
function behindGlobalParsers({ authenticator, keys, keyRoutes }: KeyRoutesApp): express.Express {
  const auth = dropsAuth({ authenticator, keys });
  const app = express();
  app.use(express.json({ limit: keyRoutes.bodyLimit }));
  app.use(express.urlencoded({ extended: false, limit: keyRoutes.bodyLimit }));
  app.use('/keys', auth.keysRouter(keyRoutes));
  app.use(auth.errorHandler());
  return app;
}

describeKeyRoutes(api, `dropsAuth().keysRouter() behind a global express.json() and express.urlencoded() (Express ${major})`, {
  serve: (app) => listen(behindGlobalParsers(app)),
});

let idp: LocalIdentityProvider;
beforeAll(async () => {
  idp = await LocalIdentityProvider.start();
});
afterAll(async () => {
  await idp?.close();
});

const bearer = (credential: string): Record<string, string> => ({ authorization: `Bearer ${credential}` });
const json = { 'content-type': 'application/json' };

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

describe('keysRouter: what the shared suite does not cover', () => {
  it('mints from a form body express.urlencoded() parsed, and reads a text body itself as JSON (400 when it is not)', async () => {
    const keyStore = new MemoryKeyStore();
    const app = behindGlobalParsers({
      authenticator: createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) }),
      keys: createKeyManager({ keyStore }),
      keyRoutes: { bodyLimit: 1024 },
    });
    const server = await listen(app);
    try {
      const token = bearer(idp.mintIdToken({ sub: 'form' }));
      const form = await fetch(`${server.url}/keys`, {
        method: 'POST',
        headers: { ...token, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'name=ci-form',
      });
      expect(form.status).toBe(201);
      expect(((await form.json()) as { name: string }).name).toBe('ci-form');
      const text = await fetch(`${server.url}/keys`, {
        method: 'POST',
        headers: { ...token, 'content-type': 'text/plain' },
        body: 'ci-main',
      });
      expect(text.status).toBe(400);
      expect(text.headers.get('content-type')).toBe('application/json; charset=utf-8');
    } finally {
      await server.close();
    }
  });

  it('checks its options when created: a mistake or an unknown option is a TypeError', () => {
    const keyStore = new MemoryKeyStore();
    const auth = dropsAuth({ authenticator: createAuthenticator({ keyStore }), keys: createKeyManager({ keyStore }) });
    expect(() => auth.keysRouter({ bodyLimit: 0 })).toThrow(TypeError);
    expect(() => auth.keysRouter({ bodyLimit: 1.5 })).toThrow(TypeError);
    expect(() => auth.keysRouter({ basePath: '/keys' } as never)).toThrow(/unknown option "basePath"/);
    expect(() => auth.errorHandler({ keysPath: 'keys' })).toThrow(TypeError);
    expect(() => auth.errorHandler({ publicPaths: ['deploy'] })).toThrow(TypeError);
  });
});
