import assert from 'node:assert/strict';
import { generateApiKey } from '../api-key/generate-api-key.js';
import type { KeyEventContext } from '../key-store/key-event.js';
import type { KeyStore, NewKeyRecord, RollKeyOptions } from '../key-store/key-store.js';
import type { KeyStoreSuite } from './key-store-suite.js';
import { sampleKeyRecord } from './sample-key-record.js';

const EVENT: KeyEventContext = { source: 'api', actor: 'user_roll', ip: '203.0.113.9', userAgent: 'roll-test', url: null };
const HOUR = 3_600_000;

/** A roll of `old` to a fresh key of its account, its grace ending `graceMs` after the store's `now()`. */
function rollOf(store: KeyStore, old: NewKeyRecord, graceMs = HOUR, maxActive = 100): RollKeyOptions {
  const key = sampleKeyRecord({ accountId: old.accountId, name: old.name, createdAt: new Date(store.now()) });
  return { oldId: old.id, key, graceEndsAt: new Date(store.now() + graceMs), maxActive, event: EVENT };
}

/**
 * `roll` and `revokeAll` in the KeyStore conformance suite: a roll mints the new key and shortens
 * the old key's expiry (never lengthens it) with linked events, at most once per key, atomically
 * (nothing changes when it does not roll); `revokeAll` revokes exactly the account's active keys;
 * a peer (shared stores) sees both at once.
 * @internal
 */
export function describeKeyRollConformance({ describe, it, harness, itShared }: KeyStoreSuite): void {
  describe('roll', () => {
    it('mints the new key and moves the old key’s expiry to the end of the grace, with linked events', async () => {
      const { store } = harness();
      const old = sampleKeyRecord({ accountId: 'acct_roll' });
      await store.create(old);
      assert.notEqual(await store.findActive(old.id), null); // cached where a store caches
      const options = rollOf(store, old);
      const result = await store.roll(options);
      assert.deepStrictEqual(result, { status: 'rolled', oldExpiresAt: options.graceEndsAt });
      assert.deepStrictEqual(await store.findActive(options.key.id), { id: options.key.id, accountId: 'acct_roll', expiresAt: null });
      assert.deepStrictEqual(await store.findActive(old.id), { id: old.id, accountId: 'acct_roll', expiresAt: options.graceEndsAt });
      const { events } = await store.listEvents('acct_roll', { limit: 10 });
      const minted = events.find((e) => e.type === 'minted' && e.keyId === options.key.id);
      const rolled = events.find((e) => e.type === 'rolled' && e.keyId === old.id);
      assert.equal(minted?.relatedKeyId, old.id);
      assert.equal(rolled?.relatedKeyId, options.key.id);
      assert.deepStrictEqual([rolled?.actor, rolled?.ip, rolled?.source, rolled?.name], ['user_roll', '203.0.113.9', 'api', old.name]);
      const plain = events.find((e) => e.type === 'minted' && e.keyId === old.id);
      assert.equal(plain !== undefined && !('relatedKeyId' in plain), true, 'a plain mint names no other key');
    });

    it('never makes the old key live longer than its own expiry', async () => {
      const { store } = harness();
      const expiresAt = new Date(Math.ceil((store.now() + 60_000) / 1000) * 1000);
      const old = sampleKeyRecord({ accountId: 'acct_roll_short', expiresAt });
      await store.create(old);
      const result = await store.roll(rollOf(store, old, 24 * HOUR));
      assert.deepStrictEqual(result, { status: 'rolled', oldExpiresAt: expiresAt });
      assert.deepStrictEqual(await store.findActive(old.id), { id: old.id, accountId: 'acct_roll_short', expiresAt });
    });

    it('rolls a key once: a second roll is already_rolled and stores nothing', async () => {
      const { store } = harness();
      const old = sampleKeyRecord({ accountId: 'acct_roll_twice' });
      await store.create(old);
      assert.equal((await store.roll(rollOf(store, old))).status, 'rolled');
      const again = rollOf(store, old, 60_000);
      assert.deepStrictEqual(await store.roll(again), { status: 'already_rolled' });
      assert.equal(await store.findActive(again.key.id), null);
      assert.equal((await store.listByAccount('acct_roll_twice')).length, 2);
    });

    it('answers not_found for an unknown, another account’s, a revoked or an expired key, storing nothing', async () => {
      const { store } = harness();
      const mine = sampleKeyRecord({ accountId: 'acct_roll_nf' });
      const revoked = sampleKeyRecord({ accountId: 'acct_roll_nf' });
      const expired = sampleKeyRecord({ accountId: 'acct_roll_nf', expiresAt: new Date(store.now() - 1000) });
      for (const k of [mine, revoked, expired]) await store.create(k);
      await store.revoke('acct_roll_nf', revoked.id, { at: new Date() });
      const unknown = { ...mine, id: generateApiKey().id };
      const other = { ...mine, accountId: 'acct_roll_someone_else' };
      for (const [what, old] of [
        ['unknown', unknown],
        ["another account's", other],
        ['revoked', revoked],
        ['expired', expired],
      ] as const) {
        const options = rollOf(store, old);
        assert.deepStrictEqual(await store.roll(options), { status: 'not_found' }, what);
        assert.equal(await store.findActive(options.key.id), null, what);
      }
      assert.deepStrictEqual(await store.findActive(mine.id), { id: mine.id, accountId: 'acct_roll_nf', expiresAt: null });
    });

    it('answers limit at maxActive, changing nothing', async () => {
      const { store } = harness();
      const old = sampleKeyRecord({ accountId: 'acct_roll_limit' });
      await store.create(old);
      const options = rollOf(store, old, HOUR, 1);
      assert.deepStrictEqual(await store.roll(options), { status: 'limit' });
      assert.equal(await store.findActive(options.key.id), null);
      assert.deepStrictEqual(await store.findActive(old.id), { id: old.id, accountId: 'acct_roll_limit', expiresAt: null });
      assert.equal((await store.roll(rollOf(store, old, HOUR, 2))).status, 'rolled', 'the key was not marked rolled');
    });

    it('rolls a key once under concurrent rolls', async () => {
      const { store, peer } = harness();
      const old = sampleKeyRecord({ accountId: 'acct_roll_race' });
      await store.create(old);
      const stores = [store, peer ?? store];
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => stores[i % 2]!.roll(rollOf(store, old))));
      assert.equal(results.filter((r) => r.status === 'rolled').length, 1);
      assert.equal((await store.listByAccount('acct_roll_race')).length, 2);
    });

    itShared('a peer accepts the new key and knows the old key’s new expiry once roll resolves', async ({ store, peer }) => {
      const old = sampleKeyRecord({ accountId: 'acct_roll_peer' });
      await store.create(old);
      assert.deepStrictEqual(await peer.findActive(old.id), { id: old.id, accountId: 'acct_roll_peer', expiresAt: null });
      const options = rollOf(store, old);
      assert.equal((await store.roll(options)).status, 'rolled');
      assert.deepStrictEqual(await peer.findActive(old.id), { id: old.id, accountId: 'acct_roll_peer', expiresAt: options.graceEndsAt });
      assert.deepStrictEqual(await peer.findActive(options.key.id), { id: options.key.id, accountId: 'acct_roll_peer', expiresAt: null });
    });
  });

  describe('revokeAll', () => {
    it('revokes every active key of the account, one revoked event each, and no other account’s', async () => {
      const { store } = harness();
      const keys = [0, 1, 2].map(() => sampleKeyRecord({ accountId: 'acct_revoke_all' }));
      const before = sampleKeyRecord({ accountId: 'acct_revoke_all' });
      const other = sampleKeyRecord({ accountId: 'acct_revoke_all_other' });
      for (const k of [...keys, before, other]) await store.create(k);
      await store.revoke('acct_revoke_all', before.id, { at: new Date() });
      for (const k of keys) assert.notEqual(await store.findActive(k.id), null);
      assert.equal(await store.revokeAll('acct_revoke_all', { at: new Date(), event: EVENT }), 3);
      for (const k of keys) assert.equal(await store.findActive(k.id), null);
      assert.deepStrictEqual(await store.listByAccount('acct_revoke_all'), []);
      assert.notEqual(await store.findActive(other.id), null);
      const { events } = await store.listEvents('acct_revoke_all', { limit: 20 });
      const revoked = events.filter((e) => e.type === 'revoked' && e.actor === 'user_roll').map((e) => e.keyId);
      assert.deepStrictEqual(revoked.sort(), keys.map((k) => k.id).sort());
      assert.equal(await store.revokeAll('acct_revoke_all', { at: new Date() }), 0);
      assert.equal(await store.revokeAll('acct_revoke_all_nobody', { at: new Date() }), 0);
    });

    itShared('a peer refuses every revoked key once revokeAll resolves', async ({ store, peer }) => {
      const keys = [0, 1, 2].map(() => sampleKeyRecord({ accountId: 'acct_revoke_all_peer' }));
      for (const k of keys) await store.create(k);
      for (const k of keys) assert.notEqual(await peer.findActive(k.id), null);
      assert.equal(await store.revokeAll('acct_revoke_all_peer', { at: new Date() }), 3);
      for (const k of keys) assert.equal(await peer.findActive(k.id), null);
    });
  });
}
