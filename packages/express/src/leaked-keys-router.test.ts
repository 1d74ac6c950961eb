import {
  createAuthenticator,
  createGitHubSecretScanning,
  createKeyManager,
  MemoryKeyStore,
  type KeyManager,
  type LeakedKeysOptions,
} from '@drops/auth';
import { LocalSecretScanningKeys } from '@drops/auth/testing';
import { describeLeakedKeysRoutes } from '@drops/auth/testing/conformance';
import express from 'express';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dropsAuth } from './index.js';
import { listen, type TestServer } from './test-server.js';

const api = { describe, it, beforeEach, afterEach, beforeAll, afterAll };
const major = process.env['EXPRESS_MAJOR'] ?? '5';

describeLeakedKeysRoutes(api, `dropsAuth().leakedKeysRouter() without errorHandler() (Express ${major})`, {
  serve: ({ authenticator, keys, leakedKeys }) => {
    const auth = dropsAuth({ authenticator, keys });
    const app = express();
    app.use('/keys', auth.keysRouter());
    app.use(auth.leakedKeysRouter(leakedKeys));
    return listen(app);
  },
});

describeLeakedKeysRoutes(api, `dropsAuth().leakedKeysRouter() with errorHandler() (Express ${major})`, {
  serve: ({ authenticator, keys, leakedKeys }) => {
    const auth = dropsAuth({ authenticator, keys });
    const app = express();
    app.use('/keys', auth.keysRouter());
    app.use(auth.leakedKeysRouter(leakedKeys));
    app.use(auth.errorHandler());
    return listen(app);
  },
});

describe(`leakedKeysRouter behind a body parser (Express ${major})`, () => {
  let github: LocalSecretScanningKeys;
  let server: TestServer;
  let keys: KeyManager;
  const errors: unknown[] = [];

  beforeAll(async () => {
    github = await LocalSecretScanningKeys.start();
    keys = createKeyManager({ keyStore: new MemoryKeyStore() });
    const { leakedKeysRouter } = dropsAuth({ authenticator: createAuthenticator({ keyStore: new MemoryKeyStore() }), keys });
    const options: LeakedKeysOptions = { githubSecretScanning: false };
    const app = express();
    const verifying = createGitHubSecretScanning({ keysUrl: github.keysUrl });
    // express.raw() keeps the bytes GitHub signed; its limit is the router's too.
    app.use(
      '/raw',
      express.raw({ type: 'application/json', limit: '4mb' }),
      leakedKeysRouter({ githubSecretScanning: verifying, secretScanningBodyLimit: 1024 }),
    );
    app.use(express.json());
    app.use(leakedKeysRouter(options));
    app.use('/with-scanning', leakedKeysRouter({ githubSecretScanning: verifying }));
    app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      errors.push(error);
      res.status(500).json({ error: 'internal error' });
    });
    server = await listen(app);
  });
  afterAll(async () => {
    await server?.close();
    await github?.close();
  });

  it('revokes by value from the parsed body', async () => {
    const res = await fetch(`${server.url}/credentials/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ credentials: ['hp_x'] }),
    });
    expect(res.status).toBe(202);
  });

  it('verifies an alert express.raw() kept as bytes, and still holds its own size limit', async () => {
    const body = '[{"token":"not-ours","type":"drops_api_key","url":"https://github.com/o/r","source":"content"}]';
    const ok = await fetch(`${server.url}/raw/secret-scanning/github`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...github.signedHeaders(body) },
      body,
    });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Array<{ label: string }>)[0]?.label).toBe('false_positive');
    const big = JSON.stringify([{ token: 'x'.repeat(2048), type: 't' }]);
    const tooBig = await fetch(`${server.url}/raw/secret-scanning/github`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...github.signedHeaders(big) },
      body: big,
    });
    expect(tooBig.status).toBe(413);
  });

  it('refuses to guess a signed body it no longer has: a 500 naming the set-up mistake, never a 401', async () => {
    const body = '[]';
    const res = await fetch(`${server.url}/with-scanning/secret-scanning/github`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...github.signedHeaders(body) },
      body,
    });
    expect(res.status).toBe(500);
    expect(String(errors.at(-1))).toMatch(/mount the router before any body parser/);
  });
});

describe('leakedKeysRouter options', () => {
  it('checks them when created', () => {
    const keyStore = new MemoryKeyStore();
    const { leakedKeysRouter } = dropsAuth({ authenticator: createAuthenticator({ keyStore }), keys: createKeyManager({ keyStore }) });
    expect(() => leakedKeysRouter({ revokeRateLimit: { max: -1, windowMs: 1 } })).toThrow(TypeError);
    expect(() => leakedKeysRouter({ bodyLimit: 1 } as never)).toThrow(/unknown option "bodyLimit"/);
    expect(() => dropsAuth({ authenticator: createAuthenticator({ keyStore }), keys: {} as never })).toThrow(
      /keys: expected createKeyManager/,
    );
    expect(() =>
      dropsAuth({ authenticator: { authenticate: () => {}, authenticateOptional: () => {} } as never }).leakedKeysRouter(),
    ).toThrow(TypeError);
  });
});
