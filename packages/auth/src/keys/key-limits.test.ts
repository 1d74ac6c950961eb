import { describe, expect, it } from 'vitest';
import type { Principal } from '../authenticator/principal.js';
import { DropsAuthError } from '../errors/drops-auth-error.js';
import { KeyLimitError } from '../errors/key-limit-error.js';
import { RateLimitedError } from '../errors/rate-limited-error.js';
import { UnavailableError } from '../errors/unavailable-error.js';
import { inProcessRateLimitStore, type RateLimitStore } from '../rate-limit/rate-limit-store.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { createKeyManager, type KeyManagerOptions } from './create-key-manager.js';

const alice: Principal = { accountId: 'acct_alice', credential: 'id_token', claims: { sub: 'alice', iss: 'i', aud: 'a', iat: 1, exp: 2 } };
const bob: Principal = { accountId: 'acct_bob', credential: 'id_token', claims: { sub: 'bob', iss: 'i', aud: 'a', iat: 1, exp: 2 } };

function setup(options: Partial<KeyManagerOptions> = {}) {
  const time = { now: Date.UTC(2026, 10, 21, 12) };
  const keyStore = options.keyStore ?? new MemoryKeyStore();
  const keys = createKeyManager({ keyStore, clock: () => time.now, ...options });
  return { keys, keyStore, time };
}

async function failure(promise: Promise<unknown>): Promise<DropsAuthError> {
  const error = await promise.then(
    () => new Error('expected a failure'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DropsAuthError);
  return error as DropsAuthError;
}

describe('maxKeysPerAccount', () => {
  it('refuses a mint over the limit with a 409 JSON error naming it; a revoke frees a slot', async () => {
    const { keys, keyStore } = setup({ maxKeysPerAccount: 3 });
    const minted = [await keys.mint(alice), await keys.mint(alice), await keys.mint(alice)];
    const error = await failure(keys.mint(alice, { name: 'one too many' }));
    expect(error).toBeInstanceOf(KeyLimitError);
    expect([error.status, error.code, error.headers['content-type'], error.bodyText]).toEqual([
      409,
      'ERR_KEY_LIMIT',
      'application/json; charset=utf-8',
      JSON.stringify({ error: 'this account already has 3 active keys, the most it may hold: revoke one to mint another', limit: 3 }),
    ]);
    expect(await keyStore.listByAccount('acct_alice')).toHaveLength(3);
    // Another account is not affected.
    await expect(keys.mint(bob)).resolves.toMatchObject({ name: null });

    await keys.revoke(alice, minted[1]!.id);
    await expect(keys.mint(alice, { name: 'after revoke' })).resolves.toMatchObject({ name: 'after revoke' });
    await expect(keys.mint(alice)).rejects.toBeInstanceOf(KeyLimitError);
  });

  it('defaults to 1000 active keys', async () => {
    const keyStore = new MemoryKeyStore();
    const { keys } = setup({ keyStore, mintRateLimit: false });
    for (let i = 0; i < 1000; i++) await keys.mint(alice);
    await expect(keys.mint(alice)).rejects.toBeInstanceOf(KeyLimitError);
  });

  it('never lets concurrent mints pass the limit', async () => {
    const { keys, keyStore } = setup({ maxKeysPerAccount: 5, mintRateLimit: false });
    for (let i = 0; i < 4; i++) await keys.mint(alice);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => keys.mint(alice)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof KeyLimitError)).toHaveLength(9);
    expect(await keyStore.listByAccount('acct_alice')).toHaveLength(5);
  });
});

describe('mintRateLimit', () => {
  it('answers 429 with Retry-After past the burst, and allows one more per refill interval', async () => {
    // 3 at once, then one every 20 s.
    const { keys, time } = setup({ mintRateLimit: { max: 3, windowMs: 60_000 } });
    for (let i = 0; i < 3; i++) await keys.mint(alice);
    const error = await failure(keys.mint(alice));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect([error.status, error.code, error.headers['retry-after'], error.body]).toEqual([
      429,
      'ERR_RATE_LIMITED',
      '20',
      { error: 'too many keys minted for this account: try again later' },
    ]);
    // Another account has its own allowance.
    await expect(keys.mint(bob)).resolves.toBeDefined();

    time.now += 19_999;
    expect((await failure(keys.mint(alice))).headers['retry-after']).toBe('1');
    time.now += 1;
    await expect(keys.mint(alice)).resolves.toBeDefined();
    await expect(keys.mint(alice)).rejects.toBeInstanceOf(RateLimitedError);
    // A whole window later the burst is back.
    time.now += 60_000;
    for (let i = 0; i < 3; i++) await keys.mint(alice);
    await expect(keys.mint(alice)).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('defaults to 60 mints at once, then one a minute', async () => {
    const { keys, time } = setup();
    for (let i = 0; i < 60; i++) await keys.mint(alice);
    expect((await failure(keys.mint(alice))).headers['retry-after']).toBe('60');
    time.now += 60_000;
    await expect(keys.mint(alice)).resolves.toBeDefined();
  });

  it('counts in the rateLimitStore given, scope "mint" per account, one store shared by two managers', async () => {
    const keyStore = new MemoryKeyStore();
    const taken: string[] = [];
    const shared = inProcessRateLimitStore();
    const rateLimitStore: RateLimitStore = {
      take: (scope, subject, limit) => {
        taken.push(`${scope}:${subject}`);
        return shared.take(scope, subject, limit);
      },
    };
    const a = setup({ keyStore, rateLimitStore, mintRateLimit: { max: 3, windowMs: 60_000 } }).keys;
    const b = setup({ keyStore, rateLimitStore, mintRateLimit: { max: 3, windowMs: 60_000 } }).keys;
    await a.mint(alice);
    await b.mint(alice);
    await a.mint(alice);
    expect(await failure(b.mint(alice))).toBeInstanceOf(RateLimitedError);
    await expect(b.mint(bob)).resolves.toBeDefined();
    expect(taken).toEqual(['mint:acct_alice', 'mint:acct_alice', 'mint:acct_alice', 'mint:acct_alice', 'mint:acct_bob']);
    expect(await keyStore.listByAccount('acct_alice')).toHaveLength(3);
  });

  it('answers 503 with Retry-After, and mints nothing, when the rateLimitStore cannot answer', async () => {
    const rateLimitStore: RateLimitStore = { take: () => Promise.reject(new Error('connection refused')) };
    const { keys, keyStore } = setup({ rateLimitStore });
    const error = await failure(keys.mint(alice));
    expect(error).toBeInstanceOf(UnavailableError);
    expect([error.status, (error as UnavailableError).dependency, error.headers['retry-after']]).toEqual([503, 'rate_limit_store', '5']);
    expect(await keyStore.listByAccount('acct_alice')).toHaveLength(0);
  });

  it('can be turned off', async () => {
    const { keys } = setup({ mintRateLimit: false });
    for (let i = 0; i < 100; i++) await keys.mint(alice);
  });

  it('refuses bad limits with a TypeError at creation', () => {
    const keyStore = new MemoryKeyStore();
    for (const bad of [
      { maxKeysPerAccount: 0 },
      { maxKeysPerAccount: 1.5 },
      { maxKeysPerAccount: '10' },
      { mintRateLimit: { max: 0, windowMs: 1000 } },
      { mintRateLimit: { max: 1 } },
      { mintRateLimit: { max: 1, windowMs: 1000, burst: 2 } },
      { mintRateLimit: true },
      { rateLimitStore: {} },
    ]) {
      expect(() => createKeyManager({ keyStore, ...(bad as object) }), JSON.stringify(bad)).toThrow(TypeError);
    }
  });
});
