import assert from 'node:assert/strict';
import { generateApiKey } from '../api-key/generate-api-key.js';
import type { KeyEventContext } from '../key-store/key-event.js';
import type { PendingRevocationQueue } from '../key-store/pending-revocation-queue.js';
import type { PendingRevocationRequest } from '../key-store/pending-revocation-request.js';
import {
  describeConformance,
  type ConformancePart,
  type ConformanceTestApi,
  type KeyStoreCapabilities,
  type StoreHarness,
} from './conformance-suite.js';
import { sampleKeyRecord } from './sample-key-record.js';
import type { PendingRevocationQueueUnderTest } from './stores-under-test.js';

const BY_VALUE: KeyEventContext = {
  source: 'revoke_by_value',
  actor: null,
  ip: '198.51.100.23',
  userAgent: 'curl/8.5.0',
  url: null,
};

/** The store's pending requests that hold one of `keyIds` (a shared store may hold others'). */
async function pendingWith(store: PendingRevocationQueue, keyIds: readonly string[]): Promise<PendingRevocationRequest[]> {
  const all = await store.pendingRevocationRequests({ limit: 1000 });
  return all.filter((request) => request.keyIds.some((id) => keyIds.includes(id)));
}

/**
 * The pending-revocation queue's tests: recorded as given, listed
 * oldest first, completed one by one, and (on a persistent store) still there after a reopen, so a
 * crash between `POST /credentials/revoke`'s answer and the revocation loses nothing.
 * @internal
 */
export const pendingRevocationQueueTests: ConformancePart<PendingRevocationQueueUnderTest> = ({ describe, it, harness, itPersistent }) => {
  describe('PendingRevocationQueue', () => {
    it('records a request as given, lists requests oldest first, and forgets one once completed', async () => {
      const store = harness().store;
      const [a, b, c] = [generateApiKey().id, generateApiKey().id, generateApiKey().id];
      const at = new Date('2026-04-01T10:00:00.123Z');
      await store.recordRevocationRequest({ keyIds: [a, b, a], at, event: BY_VALUE });
      await store.recordRevocationRequest({
        keyIds: [c],
        at: new Date(at.getTime() + 1000),
        event: { ...BY_VALUE, ip: null, userAgent: null },
      });
      const pending = await pendingWith(store, [a, c]);
      assert.deepStrictEqual(
        pending.map(({ keyIds, at: when, event }) => ({ keyIds, at: when, event })),
        [
          { keyIds: [a, b, a], at, event: BY_VALUE },
          { keyIds: [c], at: new Date(at.getTime() + 1000), event: { ...BY_VALUE, ip: null, userAgent: null } },
        ],
      );
      assert.equal(typeof pending[0]!.id, 'string');
      assert.notEqual(pending[0]!.id, pending[1]!.id);
      assert.equal((await store.pendingRevocationRequests({ limit: 1 })).length, 1);

      await store.completeRevocationRequest({ id: pending[0]!.id });
      assert.deepStrictEqual(
        (await pendingWith(store, [a, c])).map((r) => r.keyIds),
        [[c]],
      );
      await store.completeRevocationRequest({ id: pending[0]!.id }); // again: nothing happens
      await store.completeRevocationRequest({ id: pending[1]!.id });
      assert.deepStrictEqual(await pendingWith(store, [a, c]), []);
    });

    it('records without touching the keys: a live key named in a pending request still authenticates', async () => {
      const store = harness().store;
      const key = sampleKeyRecord();
      await store.create(key);
      await store.recordRevocationRequest({ keyIds: [key.id], at: new Date(), event: BY_VALUE });
      assert.deepStrictEqual(await store.findActive(key.id), { id: key.id, accountId: key.accountId, expiresAt: null });
      for (const request of await pendingWith(store, [key.id])) await store.completeRevocationRequest({ id: request.id });
    });

    itPersistent(
      'keeps a pending request across a reopen (a crash before it was carried out): carried out then, the key ends revoked',
      async (h) => {
        const key = sampleKeyRecord();
        await h.store.create(key);
        await h.store.recordRevocationRequest({ keyIds: [key.id], at: new Date(), event: BY_VALUE });
        const reopened = await h.reopen();
        const [pending] = await pendingWith(reopened, [key.id]);
        assert.ok(pending !== undefined, 'the pending request must survive the reopen');
        assert.deepStrictEqual(pending.keyIds, [key.id]);
        assert.deepStrictEqual(await reopened.revokeMany(pending.keyIds, { at: pending.at, event: pending.event }), [
          { id: key.id, status: 'revoked' },
        ]);
        await reopened.completeRevocationRequest({ id: pending.id });
        assert.equal(await reopened.findActive(key.id), null);
        assert.deepStrictEqual(await pendingWith(reopened, [key.id]), []);
      },
    );
  });
};

/**
 * The conformance suite of the pending-revocation queue, with the hot path and the writes that
 * carry a request out (`KeyLookup`, `KeyWrites` and `PendingRevocationQueue`). A whole `KeyStore`
 * runs it within `describeKeyStoreConformance`.
 */
export function describePendingRevocationQueueConformance(
  test: ConformanceTestApi,
  name: string,
  makeHarness: () => Promise<StoreHarness<PendingRevocationQueueUnderTest>>,
  capabilities: KeyStoreCapabilities = {},
): void {
  describeConformance(
    'describePendingRevocationQueueConformance',
    `PendingRevocationQueue conformance: ${name}`,
    test,
    makeHarness,
    capabilities,
    [pendingRevocationQueueTests],
  );
}
