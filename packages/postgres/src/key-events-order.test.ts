// The event cursor is the bigint `seq`, sent as text: the list must be ordered by the number, not
// by its text (where "9" sorts after "12", and an account's tenth event would come last).
import { sampleKeyRecord } from '@drops/auth/testing/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateKeyStore } from './key-store-migrations.js';
import { openPGlite } from './open-pglite.js';
import { PostgresKeyStore } from './postgres-key-store.js';
import type { Queryable } from './queryable.js';

let db: Queryable;

beforeAll(async () => {
  db = await openPGlite({ dataDir: ':memory:' });
  await migrateKeyStore(db);
});

afterAll(async () => {
  await db?.close();
});

describe('PostgresKeyStore.listEvents', () => {
  it('lists newest first across a power of ten (seq 9 to 12), and pages the same way', async () => {
    const store = new PostgresKeyStore({ db });
    const keys = Array.from({ length: 12 }, () => sampleKeyRecord({ accountId: 'acct_twelve' }));
    for (const key of keys) await store.create(key);
    const newestFirst = [...keys].reverse().map((k) => k.id);

    const whole = await store.listEvents('acct_twelve', { limit: 100 });
    expect(whole.events.map((e) => e.keyId)).toEqual(newestFirst);

    const paged: string[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.listEvents('acct_twelve', { limit: 5, ...(cursor !== undefined ? { cursor } : {}) });
      sizes.push(page.events.length);
      paged.push(...page.events.map((e) => e.keyId));
      cursor = page.next ?? undefined;
    } while (cursor !== undefined);
    expect(sizes).toEqual([5, 5, 2]);
    expect(paged).toEqual(newestFirst);
    await store.close();
  });
});

// A use is written by the batched last-used flush, seconds after it happened. A revocation (or a
// roll) in between must not leave the key's 'first_used' event after its 'revoked' one: the log
// would tell a use of a revoked key. The store writes that key's pending uses before the change.
describe('PostgresKeyStore events stay in the order things happened', () => {
  const cases = [
    ['revoke', (s: PostgresKeyStore, id: string) => s.revoke('acct_causal', id, { at: new Date() })],
    [
      'revokeMany',
      (s: PostgresKeyStore, id: string) =>
        s.revokeMany([id], { at: new Date(), event: { source: 'api', actor: null, ip: null, userAgent: null, url: null } }),
    ],
    ['revokeAll', (s: PostgresKeyStore) => s.revokeAll('acct_causal', { at: new Date() })],
  ] as const;
  for (const [name, change] of cases) {
    it(`a use recorded before ${name} comes before its 'revoked' event`, async () => {
      const store = new PostgresKeyStore({ db, flushIntervalMs: 3_600_000 });
      const key = sampleKeyRecord({ accountId: 'acct_causal' });
      await store.create(key);
      store.recordUse(key.id, new Date());
      await change(store, key.id);
      const { events } = await store.listEvents('acct_causal', { limit: 3 });
      expect(events.filter((e) => e.keyId === key.id).map((e) => e.type)).toEqual(['revoked', 'first_used', 'minted']);
      await store.close();
    });
  }
});
