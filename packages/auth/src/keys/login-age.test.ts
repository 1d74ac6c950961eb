import { describe, expect, it } from 'vitest';
import type { Principal } from '../authenticator/principal.js';
import { UnauthenticatedError } from '../errors/unauthenticated-error.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { createKeyManager } from './create-key-manager.js';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const signedInAt = (authTime: number | undefined): Principal => ({
  accountId: 'acct_alice',
  credential: 'id_token',
  claims: {
    sub: 'alice',
    iss: 'i',
    aud: 'a',
    iat: NOW / 1000,
    exp: NOW / 1000 + 3600,
    ...(authTime === undefined ? {} : { auth_time: authTime }),
  },
});

describe('maxAuthAgeSeconds', () => {
  it('mints for a sign-in at most that old by the injected clock, and refuses an older or unknown one with the uniform 401', async () => {
    const keyStore = new MemoryKeyStore();
    const time = { now: NOW };
    const keys = createKeyManager({ keyStore, clock: () => time.now, maxAuthAgeSeconds: 300 });
    await expect(keys.mint(signedInAt(NOW / 1000 - 300))).resolves.toMatchObject({ name: null });
    for (const principal of [signedInAt(NOW / 1000 - 301), signedInAt(undefined)]) {
      const error = await keys.mint(principal, { name: 'x' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnauthenticatedError);
      expect((error as UnauthenticatedError).reason).toBe('login_too_old');
      expect((error as UnauthenticatedError).bodyText).toBe(new UnauthenticatedError('missing').bodyText);
    }
    // The same token, a second later by the clock: too old now.
    time.now += 1_000;
    await expect(keys.mint(signedInAt(NOW / 1000 - 300))).rejects.toMatchObject({ reason: 'login_too_old' });
    expect(await keyStore.listByAccount('acct_alice')).toHaveLength(1);
  });

  it('checks the login before the body: an old login with a bad body is still the 401', async () => {
    const keys = createKeyManager({ keyStore: new MemoryKeyStore(), clock: () => NOW, maxAuthAgeSeconds: 60 });
    await expect(keys.mint(signedInAt(0), { name: 42 } as never)).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('is off by default: any valid ID token mints', async () => {
    const keys = createKeyManager({ keyStore: new MemoryKeyStore(), clock: () => NOW });
    await expect(keys.mint(signedInAt(undefined))).resolves.toBeDefined();
    await expect(keys.mint(signedInAt(0))).resolves.toBeDefined();
  });

  it.each([0, -1, 1.5, '300', Number.NaN])('refuses maxAuthAgeSeconds %s with a TypeError at construction', (value) => {
    expect(() => createKeyManager({ keyStore: new MemoryKeyStore(), maxAuthAgeSeconds: value as never })).toThrow(TypeError);
  });
});
