import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { generateApiKey } from '../api-key/generate-api-key.js';
import { createAuthenticator, type Authenticator } from '../authenticator/create-authenticator.js';
import type { Principal } from '../authenticator/principal.js';
import { UnauthenticatedError } from '../errors/unauthenticated-error.js';
import { UnavailableError } from '../errors/unavailable-error.js';
import { createIdTokenVerifier } from '../id-token/create-id-token-verifier.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { delegatingKeyStore } from '../testing/delegating-key-store.js';
import { LocalIdentityProvider } from '../testing/local-identity-provider.js';
import { isErrorAnswer } from '../authenticator/authenticator-traits.js';
import { DropsAuthError } from '../errors/drops-auth-error.js';
import { createAuthCheck, type AuthAnswer } from './auth-check.js';

async function storeWithKey() {
  const keyStore = new MemoryKeyStore({ minUseIntervalMs: 0 });
  const key = generateApiKey();
  await keyStore.create({
    id: key.id,
    accountId: 'acct_1',
    prefix: key.prefix,
    name: null,
    createdAt: new Date(),
    provenance: null,
    expiresAt: null,
  });
  return { keyStore, header: `Bearer ${key.secret}` };
}

const unknown = `Bearer ${generateApiKey().secret}`;

describe('createAuthCheck', () => {
  it('answers at once, as values, when the store answers from memory: no promise, no throw', async () => {
    const { keyStore, header } = await storeWithKey();
    const authenticator = createAuthenticator({ keyStore });
    const check = createAuthCheck(authenticator);
    const ok = check(header);
    expect(ok).not.toBeInstanceOf(Promise);
    expect(ok).toMatchObject({ accountId: 'acct_1', credential: 'api_key' });
    for (const [authorization, reason] of [
      [unknown, 'unknown_key'],
      [undefined, 'missing'],
      ['Basic x', 'malformed'],
    ] as const) {
      const refused = check(authorization);
      expect(refused).toBeInstanceOf(UnauthenticatedError);
      expect(refused).toMatchObject({ reason });
    }
    expect(createAuthCheck(authenticator, { optional: true })(undefined)).toBeNull();
    expect(createAuthCheck(authenticator, { accept: ['id_token'] })(header)).toMatchObject({ reason: 'wrong_credential_type' });
    // The public methods decide the same, as promises.
    await expect(authenticator.authenticate(header)).resolves.toEqual(ok);
    await expect(authenticator.authenticate(unknown)).rejects.toMatchObject({ reason: 'unknown_key' });
  });

  it('answers a promise of the answer when the store answers later, and a 503 value on an outage, said once', async () => {
    const { keyStore, header } = await storeWithKey();
    let down = false;
    const slow = delegatingKeyStore(keyStore, {
      findActive: (id) => (down ? Promise.reject(new Error('connection refused')) : Promise.resolve(keyStore.findActive(id))),
    });
    const onWarning = vi.fn();
    const check = createAuthCheck(createAuthenticator({ keyStore: slow, onWarning }));
    const later = check(header);
    expect(later).toBeInstanceOf(Promise);
    await expect(later).resolves.toMatchObject({ accountId: 'acct_1' });
    down = true;
    for (let i = 0; i < 2; i++) {
      const answer = await check(header);
      expect(answer).toBeInstanceOf(UnavailableError);
      expect(answer).toMatchObject({ status: 503 });
    }
    expect(onWarning).toHaveBeenCalledTimes(1);
    down = false;
    await expect(check(header)).resolves.toMatchObject({ accountId: 'acct_1' });
    expect(onWarning).toHaveBeenCalledTimes(2);
  });

  it('asks an authenticator written by hand through its methods: errors as values, other faults rejected', async () => {
    const principal: Principal = { accountId: 'acct_hand', credential: 'api_key', keyId: 'k'.repeat(64) };
    const seen: unknown[] = [];
    const byHand: Authenticator = {
      authenticate: async (source, options) => {
        seen.push(options?.accept);
        if (source === 'Bearer boom') throw new Error('boom');
        if (source === undefined) throw new UnauthenticatedError('missing');
        return principal;
      },
      authenticateOptional: async (source) => (source === undefined ? null : principal),
    };
    const check = createAuthCheck(byHand, { accept: ['api_key'] });
    await expect(check('Bearer x')).resolves.toBe(principal);
    expect(seen).toEqual([['api_key']]);
    await expect(check(undefined)).resolves.toBeInstanceOf(UnauthenticatedError);
    await expect(check('Bearer boom')).rejects.toThrow('boom');
    await expect(createAuthCheck(byHand, { optional: true })(undefined)).resolves.toBeNull();
  });
});

describe('isErrorAnswer', () => {
  it('tells the errors to answer (401 and 503) from a principal and from null, as instanceof DropsAuthError does', async () => {
    const { keyStore, header } = await storeWithKey();
    const down = delegatingKeyStore(keyStore, { findActive: () => Promise.reject(new Error('connection refused')) });
    const check = createAuthCheck(createAuthenticator({ keyStore }));
    const answers: AuthAnswer[] = [
      check(header) as AuthAnswer,
      check(unknown) as AuthAnswer,
      check('Basic x') as AuthAnswer,
      createAuthCheck(createAuthenticator({ keyStore }), { optional: true })(undefined) as AuthAnswer,
      await createAuthCheck(createAuthenticator({ keyStore: down, onWarning: () => {} }))(header),
    ];
    expect(answers.map(isErrorAnswer)).toEqual([false, true, true, false, true]);
    for (const answer of answers) expect(isErrorAnswer(answer)).toBe(answer instanceof DropsAuthError);
  });
});

describe('createAuthCheck: a repeated ID token', () => {
  let idp: LocalIdentityProvider;
  beforeEach(async () => {
    idp = await LocalIdentityProvider.start({ audience: 'drops-test' });
  });
  afterEach(() => idp.close());

  it('is answered at once once verified, while its key is the key set; a first sight is a promise', async () => {
    const verifier = createIdTokenVerifier(idp.verifierOptions);
    await verifier.warmUp();
    const check = createAuthCheck(createAuthenticator({ keyStore: new MemoryKeyStore(), idTokenVerifier: verifier }));
    const header = `Bearer ${idp.mintIdToken({ sub: 'acct_t' })}`;
    const first = check(header);
    expect(first).toBeInstanceOf(Promise);
    await expect(first).resolves.toMatchObject({ accountId: 'acct_t', credential: 'id_token' });
    const repeat = check(header);
    expect(repeat).not.toBeInstanceOf(Promise);
    expect(repeat).toMatchObject({ accountId: 'acct_t', credential: 'id_token' });
  });

  it('asks a verifier that inherits from one through its own verify, every time', async () => {
    const inner = createIdTokenVerifier(idp.verifierOptions);
    await inner.warmUp();
    const wrapped = Object.create(inner, {
      verify: { value: vi.fn(async () => Promise.reject(new UnauthenticatedError('invalid_token'))) },
    });
    const header = `Bearer ${idp.mintIdToken({ sub: 'acct_t' })}`;
    await inner.verify(header.slice(7));
    const check = createAuthCheck(createAuthenticator({ keyStore: new MemoryKeyStore(), idTokenVerifier: wrapped }));
    await expect(check(header)).resolves.toMatchObject({ reason: 'invalid_token' });
    expect(wrapped.verify).toHaveBeenCalledTimes(1);
  });
});
