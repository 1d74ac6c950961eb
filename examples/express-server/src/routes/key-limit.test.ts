import { describe, expect, it } from 'vitest';
import { BACKENDS, bearer, useTestServer } from '../testing/test-server.js';

// MAX_KEYS_PER_ACCOUNT reaches the key manager: over it, a mint is the documented 409 JSON error
// (not a 401: the credential is good), and a revoke frees a slot.
describe.each(BACKENDS)('MAX_KEYS_PER_ACCOUNT (%s)', (backend) => {
  const server = useTestServer({ backend, env: { MAX_KEYS_PER_ACCOUNT: '2' } });

  it('refuses a mint over the limit with 409 JSON, and mints again after a revoke', async () => {
    const s = server();
    const first = await s.mintKey('limited');
    await s.mintKey('limited');
    const token = await s.token('limited');

    const over = await s.fetch('/keys', { method: 'POST', headers: bearer(token) });
    expect(over.status).toBe(409);
    expect(over.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await over.json()).toEqual({
      error: 'this account already has 2 active keys, the most it may hold: revoke one to mint another',
      limit: 2,
    });
    const listed = (await (await s.fetch('/keys', { headers: bearer(token) })).json()) as { keys: unknown[] };
    expect(listed.keys).toHaveLength(2);
    // Another account has its own limit.
    await s.mintKey('someone-else');

    expect((await s.fetch(`/keys/${first.id}`, { method: 'DELETE', headers: bearer(token) })).status).toBe(204);
    const again = await s.fetch('/keys', { method: 'POST', headers: bearer(token) });
    expect(again.status).toBe(201);
    expect((await s.fetch('/keys', { method: 'POST', headers: bearer(token) })).status).toBe(409);
  });
});

describe('MAX_KEYS_PER_ACCOUNT in the configuration', () => {
  it('defaults to 1000 and refuses what is not a positive integer', async () => {
    const { loadConfig, ConfigError } = await import('../config.js');
    expect(loadConfig({ DATA_DIR: ':memory:' }).maxKeysPerAccount).toBe(1000);
    expect(loadConfig({ DATA_DIR: ':memory:', MAX_KEYS_PER_ACCOUNT: '25' }).maxKeysPerAccount).toBe(25);
    for (const bad of ['0', '-1', '2.5', 'lots']) {
      expect(() => loadConfig({ DATA_DIR: ':memory:', MAX_KEYS_PER_ACCOUNT: bad }), bad).toThrow(ConfigError);
    }
  });
});

// MINT_RATE_LIMIT reaches the key manager: past it, a mint is a 429 with Retry-After (not a 401),
// per account, and nothing is minted.
describe.each(BACKENDS)('MINT_RATE_LIMIT (%s)', (backend) => {
  const server = useTestServer({ backend, env: { MINT_RATE_LIMIT: '2', MINT_RATE_WINDOW_SECONDS: '600' } });

  it('refuses the mint past the limit with 429 and Retry-After, and counts per account', async () => {
    const s = server();
    await s.mintKey('busy');
    await s.mintKey('busy');
    const token = await s.token('busy');
    const over = await s.fetch('/keys', { method: 'POST', headers: bearer(token) });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const listed = (await (await s.fetch('/keys', { headers: bearer(token) })).json()) as { keys: unknown[] };
    expect(listed.keys).toHaveLength(2);
    await s.mintKey('someone-else');
  });
});

describe('MINT_RATE_LIMIT in the configuration', () => {
  it('defaults to 60 an hour and refuses what is not a positive integer', async () => {
    const { loadConfig, ConfigError } = await import('../config.js');
    expect(loadConfig({ DATA_DIR: ':memory:' }).mintRateLimit).toEqual({ max: 60, windowMs: 3_600_000 });
    expect(loadConfig({ DATA_DIR: ':memory:', MINT_RATE_LIMIT: '5', MINT_RATE_WINDOW_SECONDS: '60' }).mintRateLimit).toEqual({
      max: 5,
      windowMs: 60_000,
    });
    for (const bad of ['0', '-1', '2.5', 'lots']) {
      expect(() => loadConfig({ DATA_DIR: ':memory:', MINT_RATE_LIMIT: bad }), bad).toThrow(ConfigError);
    }
  });
});
