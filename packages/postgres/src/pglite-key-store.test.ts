import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeKeyStoreConformance, sampleKeyRecord } from '@drops/auth/testing/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS_TABLE, migrateKeyStore } from './key-store-migrations.js';
import { migrate } from './migrate.js';
import { openPGliteKeyStore } from './open-key-store.js';
import { openPGlite } from './open-pglite.js';
import { PostgresKeyStore } from './postgres-key-store.js';
import type { Queryable } from './queryable.js';

// PGlite takes seconds to start: one in-memory and one on-disk instance for the whole file.
let memory: Queryable;
let dataDir: string;
let disk: Queryable;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'drops-pglite-'));
  [memory, disk] = await Promise.all([openPGlite({ dataDir: ':memory:' }), openPGlite({ dataDir })]);
  await Promise.all([migrateKeyStore(memory), migrateKeyStore(disk)]);
});

afterAll(async () => {
  await Promise.all([memory?.close(), disk?.close()]);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describeKeyStoreConformance(
  'PostgresKeyStore on PGlite in memory',
  async () => {
    await memory.query(`truncate ${KEYS_TABLE}`);
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
  { shared: true },
);

describeKeyStoreConformance(
  'PostgresKeyStore on PGlite on disk',
  async () => {
    await disk.query(`truncate ${KEYS_TABLE}`);
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
  { persistent: true },
);

describe('PGlite', () => {
  it('runs migrations with the same runner, idempotently', async () => {
    const migrations = [{ version: 1, name: 'drops', sql: 'create table drops (slug text primary key); insert into drops values (\'a\');' }];
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
    expect(await store.findActive(key.id)).toEqual({ id: key.id, accountId: key.accountId });
    store.recordUse(key.id, new Date('2026-06-01T00:00:00Z'));
    await store.close(); // flushes, then closes PGlite
    await expect(store.findActive(key.id)).rejects.toMatchObject({ status: 503 });
  });

  it('refuses bad options with a TypeError before starting', async () => {
    await expect(openPGliteKeyStore({ dataDir: '' })).rejects.toThrow(TypeError);
    await expect(openPGliteKeyStore({ dataDir: ':memory:', flushIntervalMs: -5 })).rejects.toThrow(TypeError);
  });
});
