import { describe, expect, it } from 'vitest';
import { keyIdOf } from '../api-key/key-id.js';
import type { Principal } from '../authenticator/principal.js';
import { createAuthenticator } from '../authenticator/create-authenticator.js';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { NotFoundError } from '../errors/not-found-error.js';
import { UnauthenticatedError } from '../errors/unauthenticated-error.js';
import { UnavailableError } from '../errors/unavailable-error.js';
import type { KeyStore } from '../key-store/key-store.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { KEY_EVENT_LOG_METHODS } from '../key-store/key-event-log.js';
import { KEY_WRITES_METHODS } from '../key-store/key-writes.js';
import { PENDING_REVOCATION_QUEUE_METHODS } from '../key-store/pending-revocation-queue.js';
import { createKeyManager, type KeyManagerOptions } from './create-key-manager.js';
import type { MintOptions } from './mint-options.js';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const alice: Principal = {
  accountId: 'acct_alice',
  credential: 'id_token',
  claims: { sub: 'alice', iss: 'i', aud: 'a', iat: 1, exp: 2, auth_time: 1_763_726_400, firebase: { sign_in_provider: 'github.com' } },
};
const bob: Principal = { accountId: 'acct_bob', credential: 'id_token', claims: { sub: 'bob', iss: 'i', aud: 'a', iat: 1, exp: 2 } };

function setup(store: KeyStore = new MemoryKeyStore()) {
  let n = 0;
  const keys = createKeyManager({
    keyStore: store,
    clock: () => NOW + 1000 * n++,
    random: (size) => new Uint8Array(size).fill(n),
  });
  return { keys, store };
}

describe('createKeyManager', () => {
  it('mints a key whose secret authenticates as the account, returned once with its metadata', async () => {
    const { keys, store } = setup();
    const minted = await keys.mint(alice, { name: 'ci-main' });
    expect(minted).toEqual({
      apiKey: minted.apiKey,
      id: keyIdOf(minted.apiKey),
      prefix: minted.apiKey.slice(0, 10),
      name: 'ci-main',
      createdAt: new Date(NOW).toISOString(),
      expiresAt: null,
    });
    expect(minted.apiKey).toMatch(/^hp_[A-Za-z0-9_-]{43}$/);
    const principal = await createAuthenticator({ keyStore: store }).authenticate(`Bearer ${minted.apiKey}`);
    expect(principal).toEqual({ accountId: 'acct_alice', credential: 'api_key', keyId: minted.id });
  });

  it('takes a store of the three parts it uses (no lookup, no close): mints, rolls, lists, revokes, logs and revokes by value', async () => {
    const whole = new MemoryKeyStore();
    const parts = [...KEY_WRITES_METHODS, ...KEY_EVENT_LOG_METHODS, ...PENDING_REVOCATION_QUEUE_METHODS];
    const keyStore = Object.fromEntries(parts.map((m) => [m, whole[m].bind(whole)])) as unknown as KeyManagerOptions['keyStore'];
    expect('findActive' in keyStore || 'close' in keyStore).toBe(false);
    const keys = createKeyManager({ keyStore });
    const minted = await keys.mint(alice, { name: 'ci' });
    const rolled = await keys.roll(alice, minted.id);
    expect((await keys.list(alice)).map((k) => k.id).sort()).toEqual([minted.id, rolled.id].sort());
    await keys.revoke(alice, minted.id);
    await keys.revokeBySecretLater([rolled.apiKey], { source: 'revoke_by_value' });
    await keys.revokePending();
    expect(await keys.list(alice)).toEqual([]);
    expect((await keys.events(alice)).events.map((e) => e.type)).toEqual(['revoked', 'revoked', 'rolled', 'minted', 'minted']);
  });

  it('mints without a body or name', async () => {
    const { keys } = setup();
    expect((await keys.mint(alice)).name).toBeNull();
    expect((await keys.mint(alice, {})).name).toBeNull();
  });

  it('refuses to mint for an API key principal with the uniform 401', async () => {
    const { keys, store } = setup();
    const viaKey: Principal = { accountId: 'acct_alice', credential: 'api_key', keyId: '0'.repeat(64) };
    await expect(keys.mint(viaKey, { name: 'x' })).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(await store.listByAccount('acct_alice')).toEqual([]);
  });

  it.each([
    ['a name over 64 characters', { name: 'x'.repeat(65) }],
    ['an empty name', { name: '   ' }],
    ['a non-string name', { name: 42 }],
    ['control characters', { name: 'a\nb' }],
    ['unknown fields', { name: 'ok', admin: true }],
    ['a non-object', 'ci-main'],
    ['an array', [1]],
  ])('refuses %s with a 400 and stores nothing', async (_label, body) => {
    const { keys, store } = setup();
    // Mint options may come straight from a request body: checked at run time whatever the type says.
    const error = await keys.mint(alice, body as MintOptions).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).status).toBe(400);
    expect(await store.listByAccount('acct_alice')).toEqual([]);
  });

  it('lists the account’s keys newest first, never with a secret', async () => {
    const { keys } = setup();
    const first = await keys.mint(alice, { name: 'one' });
    const second = await keys.mint(alice, { name: 'two' });
    await keys.mint(bob, { name: 'bob' });
    const listed = await keys.list(alice);
    expect(listed.map((k) => k.name)).toEqual(['two', 'one']);
    expect(listed[0]).toEqual({
      id: second.id,
      prefix: second.prefix,
      name: 'two',
      createdAt: second.createdAt,
      lastUsedAt: null,
      expiresAt: null,
    });
    expect(JSON.stringify(listed)).not.toContain(first.apiKey);
    expect(JSON.stringify(listed)).not.toContain(second.apiKey);
  });

  it('revokes the account’s own key; another account’s or a revoked one is 404', async () => {
    const { keys, store } = setup();
    const own = await keys.mint(alice);
    const theirs = await keys.mint(bob);
    await expect(keys.revoke(alice, theirs.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await store.findActive(theirs.id)).not.toBeNull();
    await keys.revoke(alice, own.id);
    expect(await store.findActive(own.id)).toBeNull();
    await expect(keys.revoke(alice, own.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses a key id that is not 64 lowercase hex with a 400', async () => {
    const { keys } = setup();
    for (const id of ['', 'abc', 'A'.repeat(64), '../'.repeat(22), 'g'.repeat(64)]) {
      await expect(keys.revoke(alice, id)).rejects.toBeInstanceOf(InvalidRequestError);
    }
  });

  it('turns store failures into 503', async () => {
    const broken = Object.assign(new MemoryKeyStore(), {
      create: async () => Promise.reject(new Error('db down')),
      createWithinLimit: async () => Promise.reject(new Error('db down')),
      listByAccount: async () => Promise.reject(new Error('db down')),
      revoke: async () => Promise.reject(new Error('db down')),
    });
    const { keys } = setup(broken);
    await expect(keys.mint(alice)).rejects.toBeInstanceOf(UnavailableError);
    await expect(keys.list(alice)).rejects.toBeInstanceOf(UnavailableError);
    await expect(keys.revoke(alice, '0'.repeat(64))).rejects.toBeInstanceOf(UnavailableError);
  });

  it('records the minting login as provenance', async () => {
    const rows: unknown[] = [];
    const store = new MemoryKeyStore();
    const recording = Object.assign(Object.create(store) as KeyStore, {
      createWithinLimit: async (k: Parameters<KeyStore['create']>[0], maxActive: number) => {
        rows.push(k);
        return store.createWithinLimit(k, maxActive);
      },
    });
    const { keys } = setup(recording);
    await keys.mint(alice);
    expect(rows[0]).toMatchObject({
      provenance: { subject: 'alice', signInProvider: 'github.com', authTime: new Date(1_763_726_400_000) },
    });
  });
});
