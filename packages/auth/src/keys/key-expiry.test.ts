import { describe, expect, it, vi } from 'vitest';
import { createAuthenticator } from '../authenticator/create-authenticator.js';
import type { Principal } from '../authenticator/principal.js';
import { keyExpirationHeader } from '../adapter/key-expiration-header.js';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { UnauthenticatedError } from '../errors/unauthenticated-error.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { createKeyManager } from './create-key-manager.js';

const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
const DAY = 86_400_000;
const alice: Principal = { accountId: 'acct_alice', credential: 'id_token', claims: { sub: 'alice', iss: 'i', aud: 'a', iat: 1, exp: 2 } };

/** A store, key manager and authenticator on one injected clock, set with `at`. */
function setup(options: { maxKeyLifetimeSeconds?: number } = {}) {
  const clock = { now: NOW };
  const store = new MemoryKeyStore({ clock: () => clock.now, minUseIntervalMs: 0 });
  const keys = createKeyManager({ keyStore: store, clock: () => clock.now, mintRateLimit: false, ...options });
  const authenticator = createAuthenticator({ keyStore: store });
  return { clock, store, keys, authenticator };
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('key expiry', () => {
  it('authenticates until the instant before expiresAt, then answers the uniform 401 of an unknown key', async () => {
    const { clock, keys, authenticator } = setup();
    const expiresAt = new Date(NOW + 3000).toISOString();
    const minted = await keys.mint(alice, { expiresAt });
    expect(minted.expiresAt).toBe(expiresAt);
    clock.now = NOW + 2999;
    const principal = await authenticator.authenticate(`Bearer ${minted.apiKey}`);
    expect(principal).toEqual({ accountId: 'acct_alice', credential: 'api_key', keyId: minted.id, expiresAt: new Date(expiresAt) });
    clock.now = NOW + 3000;
    const expired = await refusal(authenticator.authenticate(`Bearer ${minted.apiKey}`));
    const unknown = await refusal(authenticator.authenticate(`Bearer hp_${'A'.repeat(43)}`));
    expect(expired).toBeInstanceOf(UnauthenticatedError);
    expect((expired as UnauthenticatedError).reason).toBe('expired_key');
    expect((expired as UnauthenticatedError).bodyText).toBe((unknown as UnauthenticatedError).bodyText);
    expect((expired as UnauthenticatedError).status).toBe(401);
  });

  it("writes one 'expired' event, at the expiry, however many requests come after it", async () => {
    const { clock, keys, authenticator } = setup();
    const minted = await keys.mint(alice, { expiresAt: new Date(NOW + 1000).toISOString() });
    clock.now = NOW + 5000;
    for (let i = 0; i < 3; i++) await refusal(authenticator.authenticate(`Bearer ${minted.apiKey}`));
    const { events } = await keys.events(alice);
    expect(events.map((e) => [e.type, e.at])).toEqual([
      ['expired', new Date(NOW + 1000).toISOString()],
      ['minted', new Date(NOW).toISOString()],
    ]);
  });

  it('lists expiresAt, null for a key that never expires', async () => {
    const { keys } = setup();
    const expiring = await keys.mint(alice, { name: 'ci', expiresAt: '2026-12-01T10:00:00+02:00' });
    expect(expiring.expiresAt).toBe('2026-12-01T08:00:00.000Z');
    const lasting = await keys.mint(alice);
    expect(lasting.expiresAt).toBeNull();
    const listed = await keys.list(alice);
    expect(listed.map((k) => [k.id, k.expiresAt]).sort()).toEqual(
      [
        [expiring.id, '2026-12-01T08:00:00.000Z'],
        [lasting.id, null],
      ].sort(),
    );
  });

  it.each([
    ['now', new Date(NOW).toISOString(), 'expiresAt must be in the future'],
    ['the past', new Date(NOW - 1).toISOString(), 'expiresAt must be in the future'],
    ['not a date', 'next week', 'expiresAt must be an RFC 3339 date-time'],
    ['without an offset', '2026-12-01T00:00:00', 'expiresAt must be an RFC 3339 date-time'],
    ['a date only', '2026-12-01', 'expiresAt must be an RFC 3339 date-time'],
  ])('refuses an expiresAt %s with a 400 that mints nothing', async (_what, expiresAt, message) => {
    const { keys } = setup();
    const error = await refusal(keys.mint(alice, { expiresAt }));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).message).toContain(message);
    expect(await keys.list(alice)).toEqual([]);
  });

  it('refuses an expiresAt further ahead than maxKeyLifetimeSeconds, and takes one exactly at it', async () => {
    const { keys } = setup({ maxKeyLifetimeSeconds: 90 * 86_400 });
    const error = await refusal(keys.mint(alice, { expiresAt: new Date(NOW + 90 * DAY + 1).toISOString() }));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).message).toContain(`at most ${90 * 86_400} seconds ahead`);
    expect(await keys.list(alice)).toEqual([]);
    const minted = await keys.mint(alice, { expiresAt: new Date(NOW + 90 * DAY).toISOString() });
    expect(minted.expiresAt).toBe(new Date(NOW + 90 * DAY).toISOString());
  });

  it('gives a mint without expiresAt, and a roll’s new key, maxKeyLifetimeSeconds (never no expiry)', async () => {
    const { clock, keys } = setup({ maxKeyLifetimeSeconds: 30 * 86_400 });
    const minted = await keys.mint(alice);
    expect(minted.expiresAt).toBe(new Date(NOW + 30 * DAY).toISOString());
    clock.now = NOW + 29 * DAY;
    const rolled = await keys.roll(alice, minted.id);
    expect(rolled.expiresAt).toBe(new Date(NOW + 59 * DAY).toISOString());
  });

  it('accepts any future expiry, or none, without maxKeyLifetimeSeconds', async () => {
    const { keys } = setup();
    const minted = await keys.mint(alice, { expiresAt: '2999-01-01T00:00:00Z' });
    expect(minted.expiresAt).toBe('2999-01-01T00:00:00.000Z');
  });
});

describe('keyExpirationHeader', () => {
  const key = (expiresAt?: Date): Principal =>
    expiresAt === undefined
      ? { accountId: 'a', credential: 'api_key', keyId: 'k' }
      : { accountId: 'a', credential: 'api_key', keyId: 'k', expiresAt };

  it('answers the expiry of a key that expires within 7 days, at 7 days included', () => {
    expect(keyExpirationHeader(key(new Date(NOW + 3 * DAY)), NOW)).toBe(new Date(NOW + 3 * DAY).toISOString());
    expect(keyExpirationHeader(key(new Date(NOW + 7 * DAY)), NOW)).toBe(new Date(NOW + 7 * DAY).toISOString());
  });

  it('answers null past 7 days, for a key without expiry, an ID token or no principal', () => {
    expect(keyExpirationHeader(key(new Date(NOW + 7 * DAY + 1)), NOW)).toBeNull();
    expect(keyExpirationHeader(key(), NOW)).toBeNull();
    expect(keyExpirationHeader(alice, NOW)).toBeNull();
    expect(keyExpirationHeader(null, NOW)).toBeNull();
    expect(keyExpirationHeader(undefined, NOW)).toBeNull();
  });

  it('reads the clock only for an API key that expires: every adapter calls it on every answer', () => {
    const clock = vi.spyOn(Date, 'now');
    try {
      for (const principal of [key(), alice, null, undefined]) expect(keyExpirationHeader(principal)).toBeNull();
      expect(clock).not.toHaveBeenCalled();
      clock.mockReturnValue(NOW);
      expect(keyExpirationHeader(key(new Date(NOW + DAY)))).toBe(new Date(NOW + DAY).toISOString());
      expect(keyExpirationHeader(key(new Date(NOW + 8 * DAY)))).toBeNull();
      expect(clock).toHaveBeenCalledTimes(2);
    } finally {
      clock.mockRestore();
    }
  });
});
