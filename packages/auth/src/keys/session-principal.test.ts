import { describe, expect, it } from 'vitest';
import type { Principal } from '../authenticator/principal.js';
import { UnauthenticatedError } from '../errors/unauthenticated-error.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { createKeyManager } from './create-key-manager.js';
import { SESSION_ISSUER, sessionPrincipal } from './session-principal.js';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const clock = (): number => NOW;
const minutesAgo = (m: number): Date => new Date(NOW - m * 60_000);

describe('sessionPrincipal: minting for a user the app signed in itself', () => {
  it('mints a key for the session account, with the user as the actor', async () => {
    const keyStore = new MemoryKeyStore();
    const keys = createKeyManager({ keyStore, clock });
    const principal = sessionPrincipal({ accountId: 'acct_alice', userId: 'alice', signedInAt: minutesAgo(1) }, clock);
    expect(principal.claims).toMatchObject({ iss: SESSION_ISSUER, aud: SESSION_ISSUER, sub: 'alice', auth_time: NOW / 1000 - 60 });
    const minted = await keys.mint(principal, { name: 'laptop' });
    expect(minted).toMatchObject({ name: 'laptop' });
    expect((await keyStore.listByAccount('acct_alice')).map((k) => k.id)).toEqual([minted.id]);
    const { events } = await keys.events({ accountId: 'acct_alice', credential: 'api_key', keyId: minted.id });
    expect(events[0]).toMatchObject({ type: 'minted', actor: 'alice' });
  });

  it('holds the recent-login rule: a sign-in older than maxAuthAgeSeconds gets the uniform 401', async () => {
    const keyStore = new MemoryKeyStore();
    const keys = createKeyManager({ keyStore, clock, maxAuthAgeSeconds: 300 });
    await expect(keys.mint(sessionPrincipal({ accountId: 'a', userId: 'u', signedInAt: minutesAgo(5) }, clock))).resolves.toBeDefined();
    const error = await keys
      .mint(sessionPrincipal({ accountId: 'a', userId: 'u', signedInAt: minutesAgo(6) }, clock))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthenticatedError);
    expect(error).toMatchObject({ status: 401, reason: 'login_too_old' });
    expect(await keyStore.listByAccount('a')).toHaveLength(1);
  });

  it('never lets an API key mint, session app or not', async () => {
    const keyStore = new MemoryKeyStore();
    const keys = createKeyManager({ keyStore, clock });
    const apiKey: Principal = { accountId: 'a', credential: 'api_key', keyId: 'f'.repeat(64) };
    await expect(keys.mint(apiKey)).rejects.toMatchObject({ status: 401, reason: 'wrong_credential_type' });
    // A principal is not a session: passing one is a TypeError, not a mint.
    expect(() => sessionPrincipal(apiKey as never, clock)).toThrow(TypeError);
    expect(await keyStore.listByAccount('a')).toHaveLength(0);
  });

  it.each([
    [{ accountId: '', userId: 'u', signedInAt: new Date(NOW) }],
    [{ accountId: 'a', userId: 'u'.repeat(129), signedInAt: new Date(NOW) }],
    [{ accountId: 'a', userId: 'u', signedInAt: NOW }],
    [{ accountId: 'a', userId: 'u', signedInAt: new Date(Number.NaN) }],
    [{ accountId: 'a', userId: 'u', signedInAt: new Date(NOW + 60_000) }],
    [{ accountId: 'a', userId: 'u', signedInAt: new Date(NOW), extra: 1 }],
  ])('refuses %j with a TypeError', (session) => {
    expect(() => sessionPrincipal(session as never, clock)).toThrow(TypeError);
  });
});
