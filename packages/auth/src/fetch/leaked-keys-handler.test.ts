import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { createKeyManager } from '../keys/create-key-manager.js';
import { describeLeakedKeysRoutes } from '../testing/leaked-keys-conformance.js';
import { inProcessRateLimitStore, type RateLimitStore } from '../rate-limit/rate-limit-store.js';
import { keysHandler } from './keys-handler.js';
import { leakedKeysHandler } from './leaked-keys-handler.js';
import { serveFetch } from './test-fetch-server.js';

describeLeakedKeysRoutes({ describe, it, beforeEach, afterEach, beforeAll, afterAll }, 'leakedKeysHandler (fetch)', {
  serve: async ({ authenticator, keys, leakedKeys }) => {
    const keyRoutes = keysHandler(authenticator, keys);
    const leaked = leakedKeysHandler(keys, leakedKeys);
    return serveFetch((request, client) =>
      new URL(request.url).pathname.startsWith('/keys') ? keyRoutes(request, client) : leaked(request, client),
    );
  },
});

describe('leakedKeysHandler', () => {
  const keys = createKeyManager({ keyStore: new MemoryKeyStore() });

  it('answers other paths with a 404', async () => {
    const handler = leakedKeysHandler(keys, { githubSecretScanning: false });
    const res = await handler(new Request('http://x/credentials/revoke/more', { method: 'POST', body: '{}' }));
    expect(res.status).toBe(404);
  });

  it('shares one allowance among clients whose address it is not given', async () => {
    const handler = leakedKeysHandler(keys, { githubSecretScanning: false, revokeRateLimit: { max: 1, windowMs: 60_000 } });
    const revoke = (ip?: string): Promise<Response> =>
      handler(
        new Request('http://x/credentials/revoke', { method: 'POST', body: '{"credentials":["x"]}' }),
        ip === undefined ? undefined : { ip },
      );
    expect((await revoke()).status).toBe(202);
    expect((await revoke()).status).toBe(429);
    expect((await revoke('203.0.113.7')).status).toBe(202);
    expect((await revoke('203.0.113.7')).status).toBe(429);
    expect((await revoke('198.51.100.1')).status).toBe(202);
  });

  it('counts in the rateLimitStore given (scope revoke_by_value), and answers 503 with Retry-After, never 202, when it cannot', async () => {
    const taken: string[] = [];
    let failing = false;
    const shared = inProcessRateLimitStore();
    const rateLimitStore: RateLimitStore = {
      take: (scope, subject, limit) => {
        taken.push(`${scope}:${subject}`);
        return failing ? Promise.reject(new Error('database down')) : shared.take(scope, subject, limit);
      },
    };
    const options = { githubSecretScanning: false, revokeRateLimit: { max: 1, windowMs: 60_000 }, rateLimitStore } as const;
    const [one, two] = [leakedKeysHandler(keys, options), leakedKeysHandler(keys, options)];
    const revoke = (handler: typeof one): Promise<Response> =>
      handler(new Request('http://x/credentials/revoke', { method: 'POST', body: '{"credentials":["x"]}' }), { ip: '203.0.113.9' });
    expect((await revoke(one)).status).toBe(202);
    expect((await revoke(two)).status).toBe(429);
    failing = true;
    const down = await revoke(one);
    expect([down.status, down.headers.get('retry-after')]).toEqual([503, '5']);
    expect(taken).toEqual(['revoke_by_value:203.0.113.9', 'revoke_by_value:203.0.113.9', 'revoke_by_value:203.0.113.9']);
  });

  it('checks its options when created', () => {
    for (const bad of [
      { revokeRateLimit: { max: 0, windowMs: 1 } },
      { revokeBodyLimit: 0 },
      { secretScanningBodyLimit: 1.5 },
      { githubSecretScanning: true },
      { githubSecretScanning: {} },
      { bodyLimit: 10 },
      { rateLimitStore: { take: 1 } },
    ]) {
      expect(() => leakedKeysHandler(keys, bad as never), JSON.stringify(bad)).toThrow(TypeError);
    }
    expect(() => leakedKeysHandler({} as never)).toThrow(/keys must come from createKeyManager/);
  });
});
