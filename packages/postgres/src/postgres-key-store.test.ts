import { UnavailableError } from '@drops/auth';
import { describeKeyStoreConformance, sampleKeyRecord } from '@drops/auth/testing/conformance';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fromPgPool } from './from-pg-pool.js';
import { KEY_EVENTS_TABLE, KEYS_TABLE, migrateKeyStore, SESSION_CUTOFFS_TABLE } from './key-store-migrations.js';
import { openPostgresKeyStore } from './open-key-store.js';
import { PostgresKeyStore } from './postgres-key-store.js';
import type { Queryable } from './queryable.js';
import { freshDatabase, type FreshDatabase } from './test-support/fresh-database.js';

let database: FreshDatabase;
let db: Queryable;
let peerDb: Queryable;

beforeAll(async () => {
  database = await freshDatabase('keys');
  db = fromPgPool(database.pool());
  peerDb = fromPgPool(database.pool());
  await migrateKeyStore(db);
});

afterAll(async () => {
  await database?.drop();
});

for (const cache of [true, false]) {
  describeKeyStoreConformance(
    { describe, it, beforeEach, afterEach },
    `PostgresKeyStore on PostgreSQL, cache ${cache ? 'on' : 'off'}`,
    async () => {
      await db.query(`truncate ${KEYS_TABLE}, ${KEY_EVENTS_TABLE}, ${SESSION_CUTOFFS_TABLE}`);
      const store = new PostgresKeyStore({ db, minUseIntervalMs: 0, cache });
      // The peer is another instance: its own pool, its own connections.
      const peer = new PostgresKeyStore({ db: peerDb, minUseIntervalMs: 0, cache });
      const reopened: PostgresKeyStore[] = [];
      return {
        store,
        peer,
        flushUses: () => store.flushUses(),
        reopen: async () => {
          await store.close();
          const again = new PostgresKeyStore({ db: fromPgPool(database.pool()), closeDatabase: true, cache });
          reopened.push(again);
          return again;
        },
        cleanup: async () => {
          await Promise.all([store.close(), peer.close(), ...reopened.map((s) => s.close())]);
        },
      };
    },
    { shared: true, persistent: true, sessionCutoffs: true },
  );
}

describe('PostgresKeyStore on PostgreSQL', () => {
  it('two stores on one database: minted on one, revoked on the other, refused by the first at once', async () => {
    const [a, b] = await Promise.all([
      openPostgresKeyStore({ connectionString: database.url }),
      openPostgresKeyStore({ connectionString: database.url }),
    ]);
    try {
      const key = sampleKeyRecord({ accountId: 'acct_two_stores' });
      await a.create(key);
      expect(await a.findActive(key.id)).toEqual({ id: key.id, accountId: 'acct_two_stores', expiresAt: null });
      expect(await b.findActive(key.id)).toEqual({ id: key.id, accountId: 'acct_two_stores', expiresAt: null });
      expect(await b.revoke('acct_two_stores', key.id, { at: new Date() })).toBe(true);
      expect(await a.findActive(key.id)).toBeNull();
      expect(await a.revoke('acct_two_stores', key.id, { at: new Date() })).toBe(false);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('keeps the provenance of the minting login and the revocation time (audit)', async () => {
    const store = new PostgresKeyStore({ db });
    const key = sampleKeyRecord({
      accountId: 'acct_audit',
      provenance: { subject: 'user_42', signInProvider: 'github.com', authTime: new Date('2026-01-02T03:04:05Z') },
    });
    await store.create(key);
    const revokedAt = new Date('2026-05-06T07:08:09Z');
    await store.revoke('acct_audit', key.id, { at: revokedAt });
    const { rows } = await db.query(
      `select account_id, prefix, minted_by_subject, minted_by_sign_in_provider, minted_by_auth_time, revoked_at
       from ${KEYS_TABLE} where id = $1`,
      [key.id],
    );
    expect(rows).toEqual([
      {
        account_id: 'acct_audit',
        prefix: key.prefix,
        minted_by_subject: 'user_42',
        minted_by_sign_in_provider: 'github.com',
        minted_by_auth_time: new Date('2026-01-02T03:04:05Z'),
        revoked_at: revokedAt,
      },
    ]);
    await store.close();
  });

  it('writes last use forward only across instances, and at most once a minute per key per process', async () => {
    const a = new PostgresKeyStore({ db });
    const b = new PostgresKeyStore({ db: peerDb });
    const key = sampleKeyRecord({ accountId: 'acct_uses' });
    await a.create(key);
    const t0 = new Date('2026-04-01T10:00:00Z');
    const lastUsed = async (): Promise<Date | null> => (await a.listByAccount('acct_uses'))[0]?.lastUsedAt ?? null;

    a.recordUse(key.id, t0);
    expect(await lastUsed()).toBeNull(); // not written on the request path
    await a.flushUses();
    expect(await lastUsed()).toEqual(t0);

    // Another process saw an older use: the stored time does not go back.
    b.recordUse(key.id, new Date(t0.getTime() - 3_600_000));
    await b.flushUses();
    expect(await lastUsed()).toEqual(t0);

    // Within a minute of the last recorded use, this process writes nothing new.
    a.recordUse(key.id, new Date(t0.getTime() + 30_000));
    await a.flushUses();
    expect(await lastUsed()).toEqual(t0);

    // A minute later it does; close() flushes what is pending.
    const t1 = new Date(t0.getTime() + 61_000);
    a.recordUse(key.id, t1);
    await a.close();
    expect(await lastUsed()).toEqual(t1);
    await b.close();
  });

  it('writes many recorded uses in one batch', async () => {
    const store = new PostgresKeyStore({ db });
    const keys = Array.from({ length: 50 }, () => sampleKeyRecord({ accountId: 'acct_batch' }));
    for (const k of keys) await store.create(k);
    const at = new Date('2026-04-02T00:00:00Z');
    for (const k of keys) store.recordUse(k.id, at);
    await store.close();
    const reader = new PostgresKeyStore({ db, cache: false });
    const listed = await reader.listByAccount('acct_batch');
    expect(listed.map((k) => k.lastUsedAt)).toEqual(keys.map(() => at));
    await reader.close();
  });

  it('rejects a duplicate id as a conflict, not as an outage', async () => {
    const store = new PostgresKeyStore({ db });
    const key = sampleKeyRecord();
    await store.create(key);
    const error = await store.create(key).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(UnavailableError);
    await store.close();
  });

  it('rejects with UnavailableError, never null, when the database cannot be reached', async () => {
    const down = new PostgresKeyStore({
      db: fromPgPool(database.pool({ connectionString: 'postgres://postgres@127.0.0.1:1/nowhere', connectionTimeoutMillis: 1_000 })),
    });
    const key = sampleKeyRecord();
    for (const call of [
      async (): Promise<unknown> => down.findActive(key.id),
      () => down.create(key),
      () => down.listByAccount(key.accountId),
      () => down.revoke(key.accountId, key.id, { at: new Date() }),
      () =>
        down.revokeMany([key.id], {
          at: new Date(),
          event: { source: 'revoke_by_value', actor: null, ip: null, userAgent: null, url: null },
        }),
      () => down.listEvents(key.accountId, { limit: 10 }),
    ]) {
      const error = await call().then(
        (value) => ({ resolved: value }),
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(UnavailableError);
      expect((error as UnavailableError).status).toBe(503);
      expect((error as UnavailableError).dependency).toBe('key_store');
    }
    expect(() => down.recordUse(key.id, new Date())).not.toThrow();
    await down.close();
  });
});

describe('PostgresKeyStore options', () => {
  it('refuses bad options with a TypeError at construction', () => {
    const bad: unknown[] = [
      undefined,
      {},
      { db: 'postgres://x' },
      { db, minUseIntervalMs: -1 },
      { db, flushIntervalMs: 0 },
      { db, onError: 'log' },
      { db, closeDatabase: 'yes' },
    ];
    for (const options of bad) {
      expect(() => new PostgresKeyStore(options as never)).toThrow(TypeError);
    }
  });

  it('refuses a bad connection string before connecting', async () => {
    await expect(openPostgresKeyStore({ connectionString: 'mysql://x' })).rejects.toThrow(TypeError);
    await expect(openPostgresKeyStore({ connectionString: database.url, maxConnections: 0 })).rejects.toThrow(TypeError);
  });
});
