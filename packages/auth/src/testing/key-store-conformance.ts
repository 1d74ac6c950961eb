import assert from 'node:assert/strict';
import { generateApiKey } from '../api-key/generate-api-key.js';
import type { KeyStore } from '../key-store/key-store.js';
import { describeKeyEventConformance } from './key-event-conformance.js';
import { describePendingRevocationConformance } from './pending-revocation-conformance.js';
import { describeKeyExpiryConformance } from './key-expiry-conformance.js';
import { describeKeyRollConformance } from './key-roll-conformance.js';
import { describeKeyRaceConformance } from './key-race-conformance.js';
import { describeSessionCutoffConformance } from './session-cutoff-conformance.js';
import { keyStoreSuite } from './key-store-suite.js';
import { sampleKeyRecord } from './sample-key-record.js';

/** A hook or test body: may return a promise. */
type TestBody = () => unknown;

/**
 * The four functions of the test runner the suite registers its tests with: vitest (any
 * version), jest, mocha and `node:test` all provide them. Passed in, so `@drops/auth` depends on
 * no test runner.
 */
export interface ConformanceTestApi {
  readonly describe: (name: string, body: () => void) => unknown;
  readonly it: (name: string, body: TestBody) => unknown;
  readonly beforeEach: (body: TestBody) => unknown;
  readonly afterEach: (body: TestBody) => unknown;
}

/** What a store under test is made of. */
export interface KeyStoreHarness {
  /** The store to test: empty. */
  readonly store: KeyStore;
  /**
   * A second store over the same data (another process or instance), to prove that revocation is
   * seen across instances. Optional: a purely in-process store omits it.
   */
  readonly peer?: KeyStore;
  /** Reopens the same data as a fresh store (e.g. after a restart); omit if data does not persist. */
  readonly reopen?: () => Promise<KeyStore>;
  /** Flushes recorded uses so `lastUsedAt` can be read back. Defaults to `store.close` semantics. */
  readonly flushUses?: () => Promise<void>;
  /** Releases everything the harness made. */
  readonly cleanup?: () => Promise<void>;
}

/** What a store claims beyond the base contract; each claim adds the tests that prove it. */
export interface KeyStoreCapabilities {
  /** Several store instances share the data: the harness provides `peer`. */
  readonly shared?: boolean;
  /** Data outlives the store: the harness provides `reopen`. */
  readonly persistent?: boolean;
  /** The store implements `SessionCutoffs` (sign-out everywhere): its part of the suite runs. */
  readonly sessionCutoffs?: boolean;
}

/**
 * The conformance suite every {@link KeyStore} runs. Call it in a test file with your runner's
 * `describe`, `it`, `beforeEach` and `afterEach` and a factory that makes a fresh, empty store
 * (and, where the store can, a peer over the same data). Assertions use `node:assert`.
 *
 * @example
 * ```ts
 * import { afterEach, beforeEach, describe, it } from 'vitest';
 * import { MemoryKeyStore } from '@drops/auth';
 * import { describeKeyStoreConformance } from '@drops/auth/testing/conformance';
 *
 * describeKeyStoreConformance({ describe, it, beforeEach, afterEach }, 'MemoryKeyStore', async () => ({
 *   store: new MemoryKeyStore({ minUseIntervalMs: 0 }),
 * }));
 * ```
 */
export function describeKeyStoreConformance(
  test: ConformanceTestApi,
  name: string,
  makeHarness: () => Promise<KeyStoreHarness>,
  capabilities: KeyStoreCapabilities = {},
): void {
  for (const fn of ['describe', 'it', 'beforeEach', 'afterEach'] as const) {
    if (typeof test?.[fn] !== 'function') {
      throw new TypeError(`describeKeyStoreConformance: test.${fn}: expected your test runner's ${fn} function`);
    }
  }
  const { describe, it, beforeEach, afterEach } = test;
  describe(`KeyStore conformance: ${name}`, () => {
    let h: KeyStoreHarness;
    const suite = keyStoreSuite(test, () => h, capabilities);
    const { itShared, itPersistent } = suite;
    beforeEach(async () => {
      h = await makeHarness();
    });
    afterEach(async () => {
      await h.cleanup?.();
    });

    it('finds a created key by id, with its account', async () => {
      const key = sampleKeyRecord();
      await h.store.create(key);
      assert.deepStrictEqual(await h.store.findActive(key.id), { id: key.id, accountId: key.accountId, expiresAt: null });
    });

    it('answers null for an unknown id', async () => {
      assert.equal(await h.store.findActive(generateApiKey().id), null);
    });

    it('refuses to create a key id twice', async () => {
      const key = sampleKeyRecord();
      await h.store.create(key);
      await assert.rejects(h.store.create({ ...key, accountId: 'acct_other' }));
      assert.deepStrictEqual(await h.store.findActive(key.id), { id: key.id, accountId: key.accountId, expiresAt: null });
    });

    it('never holds the secret', async () => {
      const key = sampleKeyRecord();
      await h.store.create(key);
      const listed = await h.store.listByAccount(key.accountId);
      assert.ok(!JSON.stringify(listed).includes(key.secret));
      assert.ok(!JSON.stringify(listed).includes(key.secret.slice(12)));
    });

    it('lists an account’s active keys newest first, with metadata only', async () => {
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
      const key = sampleKeyRecord({ name: null });
      await h.store.create(key);
      const [listed] = await h.store.listByAccount(key.accountId);
      assert.equal(listed?.name, null);
    });

    it('revokes the owner’s key, after which it looks exactly like an unknown one', async () => {
      const key = sampleKeyRecord();
      await h.store.create(key);
      assert.equal(await h.store.revoke(key.accountId, key.id, { at: new Date() }), true);
      const revoked = await h.store.findActive(key.id);
      const unknown = await h.store.findActive(generateApiKey().id);
      assert.equal(revoked, null);
      assert.equal(unknown, null);
      assert.deepStrictEqual(await h.store.listByAccount(key.accountId), []);
    });

    it('does not revoke another account’s key', async () => {
      const key = sampleKeyRecord({ accountId: 'acct_owner' });
      await h.store.create(key);
      assert.equal(await h.store.revoke('acct_attacker', key.id, { at: new Date() }), false);
      assert.deepStrictEqual(await h.store.findActive(key.id), { id: key.id, accountId: 'acct_owner', expiresAt: null });
    });

    it('answers false for revoking twice or an unknown id', async () => {
      const key = sampleKeyRecord();
      await h.store.create(key);
      assert.equal(await h.store.revoke(key.accountId, key.id, { at: new Date() }), true);
      assert.equal(await h.store.revoke(key.accountId, key.id, { at: new Date() }), false);
      assert.equal(await h.store.revoke(key.accountId, generateApiKey().id, { at: new Date() }), false);
    });

    it('hands revoke’s and revokeMany’s report at most one receipt per call, in counts, before resolving (or none)', async () => {
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
      const keys = Array.from({ length: 40 }, () => sampleKeyRecord({ accountId: 'acct_parallel' }));
      await Promise.all(keys.map((k) => h.store.create(k)));
      const listed = await h.store.listByAccount('acct_parallel');
      assert.deepStrictEqual(new Set(listed.map((k) => k.id)), new Set(keys.map((k) => k.id)));
      const found = await Promise.all(keys.map((k) => h.store.findActive(k.id)));
      assert.ok(found.every((f) => f !== null));
    });

    it('revokes in parallel exactly once each', async () => {
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
        const key = sampleKeyRecord({ accountId: 'acct_limit_dup' });
        assert.equal(await h.store.createWithinLimit(key, 10), true);
        await assert.rejects(h.store.createWithinLimit({ ...key, accountId: 'acct_limit_dup2' }, 10));
      });

      it('never lets concurrent creates pass the limit', async () => {
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

    it('ignores use of an unknown key without failing', async () => {
      assert.doesNotThrow(() => h.store.recordUse(generateApiKey().id, new Date()));
      await h.flushUses?.();
    });

    itShared('sees a revoke made through a peer at once', async ({ store, peer }) => {
      const key = sampleKeyRecord();
      await store.create(key);
      assert.notEqual(await peer.findActive(key.id), null);
      assert.notEqual(await store.findActive(key.id), null);
      assert.equal(await peer.revoke(key.accountId, key.id, { at: new Date() }), true);
      assert.equal(await store.findActive(key.id), null);
    });

    describeKeyEventConformance(suite);
    describePendingRevocationConformance(suite);
    describeKeyExpiryConformance(suite);
    describeKeyRollConformance(suite);
    describeKeyRaceConformance(suite);
    describeSessionCutoffConformance(suite);

    itPersistent('keeps keys and revocations across a reopen', async ({ store, reopen }) => {
      const kept = sampleKeyRecord();
      const revoked = sampleKeyRecord();
      await store.create(kept);
      await store.create(revoked);
      await store.revoke(revoked.accountId, revoked.id, { at: new Date() });
      const reopened = await reopen();
      assert.deepStrictEqual(await reopened.findActive(kept.id), { id: kept.id, accountId: kept.accountId, expiresAt: null });
      assert.equal(await reopened.findActive(revoked.id), null);
    });
  });
}
