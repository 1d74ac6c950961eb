// The event cursor is the bigint `seq`, sent as text: the list must be ordered by the number, not
// by its text (where "9" sorts after "12", and an account's tenth event would come last).
import { sampleKeyRecord } from '@drops/auth/testing/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateKeyStore } from './key-store-migrations.js';
import { PostgresKeyStore } from './postgres-key-store.js';
import type { Queryable } from './queryable.js';
import { freshPGlite } from './test-support/pglite-data-dir.js';

let db: Queryable;

beforeAll(async () => {
  db = await freshPGlite();
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
