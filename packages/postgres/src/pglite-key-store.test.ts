import { describeKeyStoreConformance, sampleKeyRecord } from '@drops/auth/testing/conformance';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KEY_EVENTS_TABLE, KEYS_TABLE, migrateKeyStore, SESSION_CUTOFFS_TABLE } from './key-store-migrations.js';
import { migrate } from './migrate.js';
import { openPGliteKeyStore } from './open-key-store.js';
import { openPGlite } from './open-pglite.js';
import { PostgresKeyStore } from './postgres-key-store.js';
import type { Queryable } from './queryable.js';
import { freshPGlite, pgliteDataDir, type PGliteDir } from './test-support/pglite-data-dir.js';

// PGlite takes seconds to start: one in-memory and one on-disk instance for the whole file (the
// on-disk one a copy of the run's cluster: no second initdb).
let memory: Queryable;
let diskDir: PGliteDir;
let dataDir: string;
let disk: Queryable;

beforeAll(async () => {
  diskDir = await pgliteDataDir();
  ({ dataDir } = diskDir);
  [memory, disk] = await Promise.all([openPGlite({ dataDir: ':memory:' }), openPGlite({ dataDir })]);
  await Promise.all([migrateKeyStore(memory), migrateKeyStore(disk)]);
});

afterAll(async () => {
  await Promise.all([memory?.close(), disk?.close()]);
  await diskDir?.remove();
});

describeKeyStoreConformance(
  { describe, it, beforeEach, afterEach },
  'PostgresKeyStore on PGlite in memory',
  async () => {
    await memory.query(`truncate ${KEYS_TABLE}, ${KEY_EVENTS_TABLE}, ${SESSION_CUTOFFS_TABLE}`);
    const store = new PostgresKeyStore({ db: memory, minUseIntervalMs: 0 });
    // One process, two store instances over the same database.
    const peer = new PostgresKeyStore({ db: memory, minUseIntervalMs: 0 });
    return {
      store,
      peer,
      flushUses: () => store.flushUses(),
      cleanup: async () => {
        await Promise.all([store.close(), peer.close()]);
      },
    };
  },
  { shared: true, sessionCutoffs: true },
);

describeKeyStoreConformance(
  { describe, it, beforeEach, afterEach },
  'PostgresKeyStore on PGlite on disk',
  async () => {
    await disk.query(`truncate ${KEYS_TABLE}, ${KEY_EVENTS_TABLE}, ${SESSION_CUTOFFS_TABLE}`);
    const store = new PostgresKeyStore({ db: disk, minUseIntervalMs: 0 });
    return {
      store,
      flushUses: () => store.flushUses(),
      // A data folder is for one process at a time: close it, then open it again as a restart would.
      reopen: async () => {
        await store.close();
        await disk.close();
        disk = await openPGlite({ dataDir });
        return new PostgresKeyStore({ db: disk });
      },
      cleanup: () => store.close(),
    };
  },
  { persistent: true, sessionCutoffs: true },
);

describe('PGlite', () => {
  it('runs migrations with the same runner, idempotently', async () => {
    const migrations = [{ version: 1, name: 'drops', sql: "create table drops (slug text primary key); insert into drops values ('a');" }];
    expect(await migrate(memory, { namespace: 'server', migrations })).toEqual({ applied: [1] });
    expect(await Promise.all([1, 2, 3].map(() => migrate(memory, { namespace: 'server', migrations })))).toEqual([
      { applied: [] },
      { applied: [] },
      { applied: [] },
    ]);
    expect((await memory.query('select count(*)::int as n from drops')).rows).toEqual([{ n: 1 }]);
  });

  it('openPGliteKeyStore opens, migrates and owns the database', async () => {
    // Reuses the on-disk folder (opening existing data is much faster than creating a database).
    await disk.close();
    const store = await openPGliteKeyStore({ dataDir });
    const key = sampleKeyRecord();
    await store.create(key);
    expect(await store.findActive(key.id)).toEqual({ id: key.id, accountId: key.accountId, expiresAt: null });
    store.recordUse(key.id, new Date('2026-06-01T00:00:00Z'));
    await store.close(); // flushes, then closes PGlite
    await expect(store.findActive(key.id)).rejects.toMatchObject({ status: 503 });
  });

  it('refuses bad options with a TypeError before starting', async () => {
    await expect(openPGliteKeyStore({ dataDir: '' })).rejects.toThrow(TypeError);
    await expect(openPGliteKeyStore({ dataDir: ':memory:', flushIntervalMs: -5 })).rejects.toThrow(TypeError);
  });
});

describe('the active-key cache on PGlite', () => {
  const isPromise = (value: unknown): boolean => value instanceof Promise;

  it('answers a key found once from memory, and a revoke through another store drops it at once', async () => {
    const store = new PostgresKeyStore({ db: memory });
    const peer = new PostgresKeyStore({ db: memory });
    const key = sampleKeyRecord({ accountId: 'acct_cache' });
    await store.create(key);
    const first = store.findActive(key.id);
    expect(isPromise(first)).toBe(true);
    expect(await first).toEqual({ id: key.id, accountId: 'acct_cache', expiresAt: null });
    // Found before: answered without a query (a value, not a promise).
    expect(store.findActive(key.id)).toEqual({ id: key.id, accountId: 'acct_cache', expiresAt: null });
    // A revoke through another store of this process drops it for every store at once (unknown
    // and revoked ids: pglite-membership.test.ts).
    expect(await peer.revoke('acct_cache', key.id, { at: new Date() })).toBe(true);
    expect(await store.findActive(key.id)).toBeNull();
    await Promise.all([store.close(), peer.close()]);
  });

  it('does not keep a key read while a revoke of it was under way', async () => {
    const store = new PostgresKeyStore({ db: memory });
    const key = sampleKeyRecord({ accountId: 'acct_race' });
    await store.create(key);
    // PGlite runs one query at a time: the lookup reads the key active, then the revoke commits.
    const lookup = store.findActive(key.id);
    const revoke = store.revoke('acct_race', key.id, { at: new Date() });
    expect(await lookup).toEqual({ id: key.id, accountId: 'acct_race', expiresAt: null });
    expect(await revoke).toBe(true);
    expect(await store.findActive(key.id)).toBeNull();
    await store.close();
  });

  it('answers nothing from memory once the database is closed: a 503, never a success', async () => {
    const db = await freshPGlite();
    await migrateKeyStore(db);
    const store = new PostgresKeyStore({ db });
    const key = sampleKeyRecord();
    await store.create(key);
    expect(await store.findActive(key.id)).not.toBeNull();
    await db.close();
    await expect(Promise.resolve().then(() => store.findActive(key.id))).rejects.toMatchObject({ status: 503 });
    await store.close();
  });

  it('can be turned off', async () => {
    const store = new PostgresKeyStore({ db: memory, maxCachedKeys: 0 });
    const key = sampleKeyRecord();
    await store.create(key);
    await store.findActive(key.id);
    expect(isPromise(store.findActive(key.id))).toBe(true);
    await store.close();
  });
});
