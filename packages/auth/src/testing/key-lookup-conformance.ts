import assert from 'node:assert/strict';
import { generateApiKey } from '../api-key/generate-api-key.js';
import {
  describeConformance,
  type ConformancePart,
  type ConformanceTestApi,
  type KeyStoreCapabilities,
  type StoreHarness,
} from './conformance-suite.js';
import { sampleKeyRecord } from './sample-key-record.js';
import type { KeyLookupUnderTest } from './stores-under-test.js';

/**
 * The hot path's tests: a created key is found with its account and expiry; revoked and unknown
 * ids both answer `null`; `now()` is near the process clock; notes of use and expiry never throw;
 * (shared) a revoke through a peer is seen at once; (persistent) keys and revocations outlive a
 * reopen; (remote) a store that cannot reach its data rejects rather than answering `null`.
 * @internal
 */
export const keyLookupTests: ConformancePart<KeyLookupUnderTest> = ({ describe, it, harness, itShared, itPersistent, itRemote }) => {
  describe('KeyLookup', () => {
    it('finds a created key by id, with its account and expiry', async () => {
      const { store } = harness();
      const lasting = sampleKeyRecord();
      const expiresAt = new Date('2031-05-06T07:08:09.123Z');
      const expiring = sampleKeyRecord({ expiresAt });
      await store.create(lasting);
      await store.create(expiring);
      assert.deepStrictEqual(await store.findActive(lasting.id), { id: lasting.id, accountId: lasting.accountId, expiresAt: null });
      assert.deepStrictEqual(await store.findActive(expiring.id), { id: expiring.id, accountId: expiring.accountId, expiresAt });
    });

    it('answers null for an unknown id', async () => {
      assert.equal(await harness().store.findActive(generateApiKey().id), null);
    });

    it('answers a revoked key exactly as an unknown one', async () => {
      const { store } = harness();
      const key = sampleKeyRecord();
      await store.create(key);
      assert.equal(await store.revoke(key.accountId, key.id, { at: new Date() }), true);
      assert.equal(await store.findActive(key.id), null);
      assert.equal(await store.findActive(generateApiKey().id), null);
    });

    it('answers now() as a time in ms near the process clock', () => {
      const now = harness().store.now();
      assert.equal(Number.isFinite(now), true);
      assert.ok(Math.abs(now - Date.now()) < 60_000, `now() is ${now - Date.now()} ms from Date.now()`);
    });

    it('notes uses and expiries without throwing, of known and unknown keys alike', async () => {
      const h = harness();
      const key = sampleKeyRecord({ expiresAt: new Date('2026-01-01T00:00:00Z') });
      await h.store.create(key);
      for (const id of [key.id, generateApiKey().id]) {
        assert.equal(h.store.recordUse(id, new Date()), undefined);
        assert.equal(
          h.store.recordExpired(id, () => {
            throw new Error('no request');
          }),
          undefined,
        );
      }
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

    itRemote('rejects a lookup it cannot make (a 503), never answering null; notes still never throw', async ({ store, unreachable }) => {
      const key = sampleKeyRecord();
      await store.create(key);
      const cut = await unreachable();
      for (const id of [key.id, generateApiKey().id]) {
        await assert.rejects(async () => cut.findActive(id), `findActive(${id.slice(0, 8)}…) must reject`);
        assert.doesNotThrow(() => cut.recordUse(id, new Date()));
        assert.doesNotThrow(() => cut.recordExpired(id));
      }
    });
  });
};

/**
 * The conformance suite of the hot path alone (`KeyLookup`, with `create` and `revoke` to
 * set keys up): for a store that offers only what `createAuthenticator` takes. A whole
 * `KeyStore` runs it within `describeKeyStoreConformance`.
 *
 * @example
 * ```ts
 * import { afterEach, beforeEach, describe, it } from 'vitest';
 * import { describeKeyLookupConformance } from '@drops/auth/testing/conformance';
 *
 * describeKeyLookupConformance({ describe, it, beforeEach, afterEach }, 'MyLookup', async () => ({ store: new MyLookup() }));
 * ```
 */
export function describeKeyLookupConformance(
  test: ConformanceTestApi,
  name: string,
  makeHarness: () => Promise<StoreHarness<KeyLookupUnderTest>>,
  capabilities: KeyStoreCapabilities = {},
): void {
  describeConformance('describeKeyLookupConformance', `KeyLookup conformance: ${name}`, test, makeHarness, capabilities, [keyLookupTests]);
}
