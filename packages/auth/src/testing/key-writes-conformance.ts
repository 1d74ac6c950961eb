import assert from 'node:assert/strict';
import { generateApiKey } from '../api-key/generate-api-key.js';
import {
  describeConformance,
  type ConformancePart,
  type ConformanceTestApi,
  type KeyStoreCapabilities,
  type StoreHarness,
} from './conformance-suite.js';
import { keyRaceTests } from './key-race-conformance.js';
import { keyRollTests } from './key-roll-conformance.js';
import { sampleKeyRecord } from './sample-key-record.js';
import type { KeyWritesUnderTest } from './stores-under-test.js';

/**
 * The writes' tests: create (no duplicate id, no secret kept), list, revoke (own account only,
 * once), receipts, parallel mints and revocations, the key limit (atomic, across a peer when
 * shared), last use, expiry kept, roll and revokeAll, and one account's operations racing.
 * @internal
 */
export const keyWritesTests: ConformancePart<KeyWritesUnderTest> = (suite) => {
  const { describe, it, harness, itShared } = suite;
  describe('KeyWrites', () => {
    it('refuses to create a key id twice', async () => {
      const h = harness();
      const key = sampleKeyRecord();
      await h.store.create(key);
      await assert.rejects(h.store.create({ ...key, accountId: 'acct_other' }));
      assert.deepStrictEqual(await h.store.findActive(key.id), { id: key.id, accountId: key.accountId, expiresAt: null });
    });

    it('never holds the secret', async () => {
      const h = harness();
      const key = sampleKeyRecord();
      await h.store.create(key);
      const listed = await h.store.listByAccount(key.accountId);
      assert.ok(!JSON.stringify(listed).includes(key.secret));
      assert.ok(!JSON.stringify(listed).includes(key.secret.slice(12)));
    });

    it('lists an account’s active keys newest first, with metadata only', async () => {
      const h = harness();
      const older = sampleKeyRecord({ accountId: 'acct_list', createdAt: new Date('2026-01-01T00:00:00Z') });
      const newer = sampleKeyRecord({ accountId: 'acct_list', createdAt: new Date('2026-02-01T00:00:00Z') });
      const other = sampleKeyRecord({ accountId: 'acct_someone_else' });
      await h.store.create(older);
      await h.store.create(newer);
      await h.store.create(other);
      const keys = await h.store.listByAccount('acct_list');
      assert.deepStrictEqual(
        keys.map((k) => k.id),
        [newer.id, older.id],
      );
      assert.deepStrictEqual(
        { ...keys[0] },
        {
          id: newer.id,
          prefix: newer.prefix,
          name: newer.name,
          createdAt: newer.createdAt,
          lastUsedAt: null,
          expiresAt: null,
        },
      );
      assert.deepStrictEqual(await h.store.listByAccount('acct_nobody'), []);
    });

    it('keeps a key without a name', async () => {
      const h = harness();
      const key = sampleKeyRecord({ name: null });
      await h.store.create(key);
      const [listed] = await h.store.listByAccount(key.accountId);
      assert.equal(listed?.name, null);
    });

    it('does not revoke another account’s key', async () => {
      const h = harness();
      const key = sampleKeyRecord({ accountId: 'acct_owner' });
      await h.store.create(key);
      assert.equal(await h.store.revoke('acct_attacker', key.id, { at: new Date() }), false);
      assert.deepStrictEqual(await h.store.findActive(key.id), { id: key.id, accountId: 'acct_owner', expiresAt: null });
    });

    it('answers false for revoking twice or an unknown id', async () => {
      const h = harness();
      const key = sampleKeyRecord();
      await h.store.create(key);
      assert.equal(await h.store.revoke(key.accountId, key.id, { at: new Date() }), true);
      assert.equal(await h.store.revoke(key.accountId, key.id, { at: new Date() }), false);
      assert.equal(await h.store.revoke(key.accountId, generateApiKey().id, { at: new Date() }), false);
    });

    it('hands revoke’s and revokeMany’s report at most one receipt per call, in counts, before resolving (or none)', async () => {
      const h = harness();
      const receipts: unknown[] = [];
      const report = (receipt: unknown): void => void receipts.push(receipt);
      const key = sampleKeyRecord();
      await h.store.create(key);
      assert.equal(await h.store.revoke(key.accountId, key.id, { at: new Date(), report }), true);
      assert.ok(receipts.length <= 1, 'at most one receipt from revoke');
      const other = sampleKeyRecord();
      await h.store.create(other);
      const before = receipts.length;
      const byValue = { source: 'revoke_by_value', actor: null, ip: null, userAgent: null, url: null } as const;
      await h.store.revokeMany([other.id, generateApiKey().id], { at: new Date(), event: byValue, report });
      assert.ok(receipts.length - before <= 1, 'at most one receipt from revokeMany');
      const resolvedWith = receipts.length;
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(receipts.length, resolvedWith, 'no receipt once the call has resolved');
      for (const receipt of receipts) {
        const { instancesAcknowledged, leasesExpired } = receipt as Record<string, unknown>;
        for (const count of [instancesAcknowledged, leasesExpired]) {
          assert.ok(Number.isSafeInteger(count) && (count as number) >= 0, `a receipt holds counts: ${String(count)}`);
        }
      }
    });

    it('mints in parallel without losing a key', async () => {
      const h = harness();
      const keys = Array.from({ length: 40 }, () => sampleKeyRecord({ accountId: 'acct_parallel' }));
      await Promise.all(keys.map((k) => h.store.create(k)));
      const listed = await h.store.listByAccount('acct_parallel');
      assert.deepStrictEqual(new Set(listed.map((k) => k.id)), new Set(keys.map((k) => k.id)));
      const found = await Promise.all(keys.map((k) => h.store.findActive(k.id)));
      assert.ok(found.every((f) => f !== null));
    });

    it('revokes in parallel exactly once each', async () => {
      const h = harness();
      const keys = Array.from({ length: 20 }, () => sampleKeyRecord({ accountId: 'acct_prevoke' }));
      for (const k of keys) await h.store.create(k);
      const results = await Promise.all(
        keys.flatMap((k) => [h.store.revoke(k.accountId, k.id, { at: new Date() }), h.store.revoke(k.accountId, k.id, { at: new Date() })]),
      );
      assert.equal(results.filter(Boolean).length, keys.length);
      const found = await Promise.all(keys.map((k) => h.store.findActive(k.id)));
      assert.ok(found.every((f) => f === null));
    });

    describe('createWithinLimit', () => {
      it('creates below the limit, refuses at it without storing, and a revoke frees a slot', async () => {
        const h = harness();
        const create = h.store.createWithinLimit.bind(h.store);
        const keys = Array.from({ length: 3 }, () => sampleKeyRecord({ accountId: 'acct_limit' }));
        for (const k of keys) assert.equal(await create(k, 3), true);
        const over = sampleKeyRecord({ accountId: 'acct_limit' });
        assert.equal(await create(over, 3), false);
        assert.equal(await h.store.findActive(over.id), null);
        assert.equal((await h.store.listByAccount('acct_limit')).length, 3);
        // Another account has its own count.
        assert.equal(await create(sampleKeyRecord({ accountId: 'acct_limit_other' }), 3), true);
        // Revoked keys do not count.
        assert.equal(await h.store.revoke('acct_limit', keys[0]!.id, { at: new Date() }), true);
        assert.equal(await create(over, 3), true);
        assert.deepStrictEqual(await h.store.findActive(over.id), { id: over.id, accountId: 'acct_limit', expiresAt: null });
        assert.equal(await create(sampleKeyRecord({ accountId: 'acct_limit' }), 3), false);
      });

      it('rejects a duplicate id as create does', async () => {
        const h = harness();
        const key = sampleKeyRecord({ accountId: 'acct_limit_dup' });
        assert.equal(await h.store.createWithinLimit(key, 10), true);
        await assert.rejects(h.store.createWithinLimit({ ...key, accountId: 'acct_limit_dup2' }, 10));
      });

      it('never lets concurrent creates pass the limit', async () => {
        const h = harness();
        const create = h.store.createWithinLimit.bind(h.store);
        // One slot left: of 12 racing creates exactly one may take it.
        for (let i = 0; i < 4; i++) await h.store.create(sampleKeyRecord({ accountId: 'acct_race' }));
        const racers = Array.from({ length: 12 }, () => sampleKeyRecord({ accountId: 'acct_race' }));
        const results = await Promise.all(racers.map((k) => create(k, 5)));
        assert.equal(results.filter(Boolean).length, 1);
        assert.equal((await h.store.listByAccount('acct_race')).length, 5);
      });

      itShared('never lets concurrent creates through two stores pass the limit', async ({ store, peer }) => {
        const racers = Array.from({ length: 16 }, () => sampleKeyRecord({ accountId: 'acct_race_shared' }));
        const results = await Promise.all(racers.map((k, i) => (i % 2 === 0 ? store : peer).createWithinLimit(k, 3)));
        assert.equal(results.filter(Boolean).length, 3);
        assert.equal((await store.listByAccount('acct_race_shared')).length, 3);
      });
    });

    it('records last use, forward only', async () => {
      const h = harness();
      const key = sampleKeyRecord();
      await h.store.create(key);
      const later = new Date('2026-03-01T12:00:00Z');
      const earlier = new Date('2026-03-01T11:00:00Z');
      h.store.recordUse(key.id, later);
      await h.flushUses?.();
      h.store.recordUse(key.id, earlier);
      await h.flushUses?.();
      const [listed] = await h.store.listByAccount(key.accountId);
      assert.deepStrictEqual(listed?.lastUsedAt, later);
    });

    it('keeps expiresAt in the list, null for a key that never expires, and takes a revoked key off it', async () => {
      const { store } = harness();
      const expiresAt = new Date('2031-05-06T07:08:09.123Z');
      const expiring = sampleKeyRecord({ accountId: 'acct_expiry_kept', expiresAt, createdAt: new Date('2026-01-02T00:00:00Z') });
      const lasting = sampleKeyRecord({ accountId: 'acct_expiry_kept', createdAt: new Date('2026-01-01T00:00:00Z') });
      const revoked = sampleKeyRecord({ accountId: 'acct_expiry_kept', createdAt: new Date('2026-01-03T00:00:00Z') });
      await store.create(expiring);
      assert.equal(await store.createWithinLimit(lasting, 10), true);
      await store.create(revoked);
      assert.equal(await store.revoke(revoked.accountId, revoked.id, { at: new Date() }), true);
      assert.deepStrictEqual(await store.findActive(lasting.id), { id: lasting.id, accountId: 'acct_expiry_kept', expiresAt: null });
      const listed = await store.listByAccount('acct_expiry_kept');
      assert.deepStrictEqual(
        listed.map((k) => [k.id, k.expiresAt]),
        [
          [expiring.id, expiresAt],
          [lasting.id, null],
        ],
      );
    });

    keyRollTests(suite);
    keyRaceTests(suite);
  });
};

/**
 * The conformance suite of the hot path and the writes (`KeyLookup` and `KeyWrites`):
 * for a store without an event log or a pending-revocation queue. A whole `KeyStore` runs it
 * within `describeKeyStoreConformance`.
 */
export function describeKeyWritesConformance(
  test: ConformanceTestApi,
  name: string,
  makeHarness: () => Promise<StoreHarness<KeyWritesUnderTest>>,
  capabilities: KeyStoreCapabilities = {},
): void {
  describeConformance('describeKeyWritesConformance', `KeyWrites conformance: ${name}`, test, makeHarness, capabilities, [keyWritesTests]);
}
