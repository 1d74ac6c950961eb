// Issue 40, item 2: on PGlite every unknown well-formed key was a query in the server's own thread
// (a flood of random keys ran at a tenth of a valid key's rate). The engine has one client, this
// process, so its membership of active ids is read at open and kept current by the triggers'
// announcements, which PGlite delivers in process: no lease, and every change seen at once.
import { sampleKeyRecord } from '@drops/auth/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_ANNOUNCEMENT_KEYS, KEYS_TABLE, migrateKeyStore } from './key-store-migrations.js';
import { PostgresKeyStore } from './postgres-key-store.js';
import type { Queryable } from './queryable.js';
import { freshPGlite } from './test-support/pglite-data-dir.js';
import { answersFromMemory } from './test-support/answers-from-memory.js';
import { cachedOn } from './test-support/cached-on.js';
import { countingQueryable, type CountingQueryable } from './test-support/counting-queryable.js';
import { eventually } from './test-support/eventually.js';

const randomId = (): string => sampleKeyRecord().id;

// PGlite takes seconds to start: one engine for the file; `counting` is a handle on it that counts.
let db: Queryable;
let counting: CountingQueryable;
let store: PostgresKeyStore;
const before = randomId();

beforeAll(async () => {
  db = await freshPGlite();
  await migrateKeyStore(db);
  // A key that exists before any store opens: the membership read at open holds it.
  await db.query(`insert into ${KEYS_TABLE} (id, account_id, prefix, created_at) values ($1, 'acct_before', left($1, 10), now())`, [
    before,
  ]);
  counting = countingQueryable(db);
  store = new PostgresKeyStore({ db: counting.db });
  // Read at open, in the background: once it is, an unknown id is answered without a query.
  await eventually(() => (answersFromMemory(store, randomId()) ? true : undefined), 2_000);
});

afterAll(async () => {
  await store?.close();
  await db?.close();
});

/** Statements sent through the store's handle while `fn` runs. */
async function queriesDuring(fn: () => Promise<void>): Promise<number> {
  const before = counting.count();
  await fn();
  return counting.count() - before;
}

describe('the membership of active ids on PGlite', () => {
  it('is read at open, with the keys that were there before', async () => {
    expect(await store.findActive(before)).toEqual({ id: before, accountId: 'acct_before', expiresAt: null });
  });

  it('answers 2,000 random well-formed unknown keys with no query at all', async () => {
    expect(
      await queriesDuring(async () => {
        for (let i = 0; i < 2_000; i++) expect(store.findActive(randomId())).toBeNull();
      }),
    ).toBe(0);
  });

  it('accepts a key minted at once, through the store or in plain SQL on the same engine', async () => {
    const key = sampleKeyRecord({ accountId: 'acct_minted' });
    await store.create(key);
    expect(await store.findActive(key.id)).toEqual({ id: key.id, accountId: 'acct_minted', expiresAt: null });
    const id = randomId();
    await db.query(`insert into ${KEYS_TABLE} (id, account_id, prefix, created_at) values ($1, 'acct_sql', left($1, 10), now())`, [id]);
    expect(await store.findActive(id)).toEqual({ id, accountId: 'acct_sql', expiresAt: null });
  });

  it('refuses a revoked key on the very next request, revoked through a store or in plain SQL', async () => {
    const peer = new PostgresKeyStore({ db });
    const [a, b, c] = [0, 1, 2].map(() => sampleKeyRecord({ accountId: 'acct_revoked' }));
    for (const key of [a!, b!, c!]) {
      await store.create(key);
      await cachedOn(store, key.id);
    }
    expect(await peer.revoke('acct_revoked', a!.id, { at: new Date() })).toBe(true);
    expect(await store.findActive(a!.id)).toBeNull();
    await db.query(`update ${KEYS_TABLE} set revoked_at = now() where id = $1`, [b!.id]);
    expect(await store.findActive(b!.id)).toBeNull();
    await db.query(`delete from ${KEYS_TABLE} where id = $1`, [c!.id]);
    expect(await store.findActive(c!.id)).toBeNull();
    // Revoked ids are now as absent as unknown ones: answered without a query.
    expect(await queriesDuring(async () => expect(store.findActive(a!.id)).toBeNull())).toBe(0);
    await peer.close();
  });

  it('accepts an expired key at once when plain SQL gives it another hour', async () => {
    const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    const key = sampleKeyRecord({ accountId: 'acct_lengthened', expiresAt });
    await store.create(key);
    expect(await cachedOn(store, key.id)).toEqual({ id: key.id, accountId: 'acct_lengthened', expiresAt });
    const { rows } = await db.query<{ expires_at: Date }>(
      `update ${KEYS_TABLE} set expires_at = date_trunc('second', now()) + interval '1 hour' where id = $1 returning expires_at`,
      [key.id],
    );
    expect(await store.findActive(key.id)).toEqual({ id: key.id, accountId: 'acct_lengthened', expiresAt: rows[0]!.expires_at });
  });

  it('follows a TRUNCATE and a bulk change (more keys than are announced one by one)', async () => {
    const kept = sampleKeyRecord({ accountId: 'acct_truncated' });
    await store.create(kept);
    await cachedOn(store, kept.id);
    await db.query(`truncate ${KEYS_TABLE} cascade`);
    expect(await store.findActive(kept.id)).toBeNull();
    // One statement minting more keys than are announced one by one: announced as one bulk change.
    const ids = Array.from({ length: BULK_ANNOUNCEMENT_KEYS + 1 }, randomId);
    await db.query(
      `insert into ${KEYS_TABLE} (id, account_id, prefix, created_at) select id, 'acct_bulk', left(id, 10), now() from unnest($1::text[]) as id`,
      [ids],
    );
    expect(await store.findActive(ids.at(-1)!)).toEqual({ id: ids.at(-1), accountId: 'acct_bulk', expiresAt: null });
    // Re-read at once: unknown ids are answered from memory again, the bulk's keys still accepted.
    await eventually(() => (answersFromMemory(store, randomId()) ? true : undefined), 5_000);
    expect(await store.findActive(ids[0]!)).toEqual({ id: ids[0], accountId: 'acct_bulk', expiresAt: null });
  });
});
