import assert from 'node:assert/strict';
import type { KeyEvent } from '../key-store/key-event.js';
import type { KeyStore } from '../key-store/key-store.js';
import type { KeyStoreSuite } from './key-store-suite.js';
import { sampleKeyRecord } from './sample-key-record.js';

/** The key's `'expired'` events, after up to `rounds` pauses for a write in the background to land (a bounded count of checks). */
async function expiredEvents(
  store: KeyStore,
  accountId: string,
  keyId: string,
  rounds: number,
  until: (n: number) => boolean,
): Promise<KeyEvent[]> {
  let events: KeyEvent[] = [];
  for (let i = 0; i < rounds; i++) {
    const page = await store.listEvents(accountId, { limit: 20 });
    events = page.events.filter((e) => e.type === 'expired' && e.keyId === keyId);
    if (until(events.length)) return events;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return events;
}

/**
 * Key expiry in the KeyStore conformance suite: a key's `expiresAt` is kept and handed back by
 * `findActive` and `listByAccount`; `recordExpired` writes the key's one `'expired'` event (at
 * its expiry, actor the key) however often it is called, on this store and (shared) on a peer;
 * `now()` is a time near the process's.
 * @internal
 */
export function describeKeyExpiryConformance({ describe, it, harness, capabilities }: KeyStoreSuite): void {
  describe('key expiry', () => {
    it('keeps expiresAt: findActive and listByAccount hand it back, null for a key that never expires', async () => {
      const { store } = harness();
      const expiresAt = new Date('2031-05-06T07:08:09.123Z');
      const expiring = sampleKeyRecord({ accountId: 'acct_expiry_kept', expiresAt, createdAt: new Date('2026-01-02T00:00:00Z') });
      const lasting = sampleKeyRecord({ accountId: 'acct_expiry_kept', createdAt: new Date('2026-01-01T00:00:00Z') });
      await store.create(expiring);
      assert.equal(await store.createWithinLimit(lasting, 10), true);
      assert.deepStrictEqual(await store.findActive(expiring.id), { id: expiring.id, accountId: 'acct_expiry_kept', expiresAt });
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

    it('answers now() as a time in ms near the process clock', () => {
      const now = harness().store.now();
      assert.equal(Number.isFinite(now), true);
      assert.ok(Math.abs(now - Date.now()) < 60_000, `now() is ${now - Date.now()} ms from Date.now()`);
    });

    it("writes the key's one 'expired' event, at its expiry, however often recordExpired is called", async () => {
      const h = harness();
      const expiresAt = new Date('2026-02-03T04:05:06.789Z');
      const key = sampleKeyRecord({ accountId: 'acct_expiry_event', expiresAt });
      await h.store.create(key);
      h.store.recordExpired(key.id, () => ({ ip: '203.0.113.9', userAgent: 'deploy-bot/2' }));
      h.store.recordExpired(key.id);
      if (capabilities.shared === true && h.peer !== undefined) h.peer.recordExpired(key.id);
      const first = await expiredEvents(h.store, key.accountId, key.id, 200, (n) => n > 0);
      assert.equal(first.length, 1);
      assert.deepStrictEqual(
        { at: first[0]!.at, source: first[0]!.source, actor: first[0]!.actor, prefix: first[0]!.prefix },
        { at: expiresAt, source: 'api', actor: key.id, prefix: key.prefix },
      );
      h.store.recordExpired(key.id);
      // Still one, after the later calls had every chance to land.
      const later = await expiredEvents(h.store, key.accountId, key.id, 10, (n) => n > 1);
      assert.equal(later.length, 1);
    });

    it('writes no event for a key without expiry, nor for an unknown id', async () => {
      const { store } = harness();
      const key = sampleKeyRecord({ accountId: 'acct_expiry_none' });
      await store.create(key);
      store.recordExpired(key.id);
      store.recordExpired(sampleKeyRecord().id);
      const events = await expiredEvents(store, key.accountId, key.id, 10, (n) => n > 0);
      assert.deepStrictEqual(events, []);
    });
  });
}
