import { describe, expect, it } from 'vitest';
import type { Principal } from '../authenticator/principal.js';
import { createAuthenticator } from '../authenticator/create-authenticator.js';
import { ConflictError } from '../errors/conflict-error.js';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { KeyLimitError } from '../errors/key-limit-error.js';
import { NotFoundError } from '../errors/not-found-error.js';
import { RateLimitedError } from '../errors/rate-limited-error.js';
import { UnauthenticatedError } from '../errors/unauthenticated-error.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { createKeyManager } from './create-key-manager.js';

const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
const alice = (authTime = NOW / 1000): Principal => ({
  accountId: 'acct_alice',
  credential: 'id_token',
  claims: { sub: 'alice', iss: 'i', aud: 'a', iat: NOW / 1000, exp: NOW / 1000 + 3600, auth_time: authTime },
});

function setUp(options: Partial<Parameters<typeof createKeyManager>[0]> = {}) {
  const time = { now: NOW };
  const keyStore = new MemoryKeyStore({ clock: () => time.now });
  const keys = createKeyManager({ keyStore, clock: () => time.now, ...options });
  const authenticator = createAuthenticator({ keyStore });
  return { time, keyStore, keys, authenticator };
}

describe('KeyManager.roll', () => {
  it('moves the old key to the end of the grace, exactly, by the store clock; the new key keeps the name and never expires', async () => {
    const { time, keys, authenticator } = setUp();
    const old = await keys.mint(alice(), { name: 'ci-main' });
    const rolled = await keys.roll(alice(), old.id, { graceSeconds: 120 });
    expect(rolled).toMatchObject({ name: 'ci-main', expiresAt: null, replaces: old.id });
    const listed = new Map((await keys.list(alice())).map((k) => [k.id, k.expiresAt]));
    expect(listed).toEqual(
      new Map([
        [rolled.id, null],
        [old.id, new Date(NOW + 120_000).toISOString()],
      ]),
    );
    time.now = NOW + 119_999;
    await expect(authenticator.authenticate(`Bearer ${old.apiKey}`)).resolves.toMatchObject({ keyId: old.id });
    time.now = NOW + 120_000;
    await expect(authenticator.authenticate(`Bearer ${old.apiKey}`)).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(authenticator.authenticate(`Bearer ${rolled.apiKey}`)).resolves.toMatchObject({ keyId: rolled.id });
  });

  it('counts as a mint: the same rate limit (429), key limit (409) and recent-login rule (401)', async () => {
    const limited = setUp({ mintRateLimit: { max: 2, windowMs: 3_600_000 } });
    const first = await limited.keys.mint(alice());
    const second = await limited.keys.roll(alice(), first.id);
    await expect(limited.keys.roll(alice(), second.id)).rejects.toBeInstanceOf(RateLimitedError);

    const full = setUp({ maxKeysPerAccount: 1 });
    const only = await full.keys.mint(alice());
    await expect(full.keys.roll(alice(), only.id)).rejects.toBeInstanceOf(KeyLimitError);

    const recent = setUp({ maxAuthAgeSeconds: 60 });
    const key = await recent.keys.mint(alice());
    await expect(recent.keys.roll(alice(NOW / 1000 - 61), key.id)).rejects.toMatchObject({ reason: 'login_too_old' });
    expect(await recent.keys.list(alice())).toHaveLength(1);
  });

  it('refuses an API key (401), a bad id (400), bad options (400), an expired key (404) and a second roll (409), storing nothing', async () => {
    const { time, keys, keyStore, authenticator } = setUp();
    const old = await keys.mint(alice());
    const byKey = await authenticator.authenticate(`Bearer ${old.apiKey}`);
    await expect(keys.roll(byKey, old.id)).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(keys.roll(alice(), 'abc')).rejects.toBeInstanceOf(InvalidRequestError);
    for (const bad of [{ graceSeconds: -1 }, { graceSeconds: 604_801 }, { graceSeconds: 0.5 }, { grace: 1 }, [1]]) {
      await expect(keys.roll(alice(), old.id, bad as never)).rejects.toBeInstanceOf(InvalidRequestError);
    }
    const expiring = await keys.mint(alice(), { expiresAt: new Date(NOW + 1000).toISOString() });
    time.now = NOW + 1000;
    await expect(keys.roll(alice(), expiring.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await keyStore.listByAccount('acct_alice')).toHaveLength(2);
    await keys.roll(alice(), old.id, { graceSeconds: 604_800 });
    await expect(keys.roll(alice(), old.id)).rejects.toBeInstanceOf(ConflictError);
    expect(await keyStore.listByAccount('acct_alice')).toHaveLength(3);
  });
});

describe('KeyManager.revokeAll', () => {
  it('revokes the account’s keys for an ID token only', async () => {
    const { keys, authenticator } = setUp();
    const a = await keys.mint(alice());
    await keys.mint(alice());
    const byKey = await authenticator.authenticate(`Bearer ${a.apiKey}`);
    await expect(keys.revokeAll(byKey)).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(keys.revokeAll(alice())).resolves.toEqual({ revoked: 2 });
    await expect(authenticator.authenticate(`Bearer ${a.apiKey}`)).rejects.toBeInstanceOf(UnauthenticatedError);
  });
});
