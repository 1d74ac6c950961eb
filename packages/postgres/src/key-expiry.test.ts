// Key expiry on PostgreSQL: migration 7 keeps expires_at; an expired key is refused in memory (no
// query per request once cached) by the database's clock, whatever the instance's own clock says;
// its one 'expired' event is written once across instances.
import { createAuthenticator, UnauthenticatedError } from '@drops/auth';
import { sampleKeyRecord } from '@drops/auth/testing/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromPgPool } from './from-pg-pool.js';
import { KEY_EVENTS_TABLE, KEYS_TABLE, migrateKeyStore } from './key-store-migrations.js';
import { PostgresKeyStore } from './postgres-key-store.js';
import type { Queryable } from './queryable.js';
import { cachedOn } from './test-support/cached-on.js';
import { countingQueryable, type CountingQueryable } from './test-support/counting-queryable.js';
import { eventually } from './test-support/eventually.js';
import { freshDatabase, type FreshDatabase } from './test-support/fresh-database.js';

const HOUR = 3_600_000;
let database: FreshDatabase;
let admin: Queryable;
let counted: CountingQueryable;
/** An instance whose clock is an hour behind the database's. */
let behind: PostgresKeyStore;
/** An instance whose clock is an hour ahead. */
let ahead: PostgresKeyStore;

async function databaseNow(): Promise<number> {
  const { rows } = await admin.query<{ ms: string }>('select extract(epoch from clock_timestamp()) * 1000 as ms');
  return Number(rows[0]!.ms);
}

beforeAll(async () => {
  database = await freshDatabase('expiry');
  admin = fromPgPool(database.pool());
  await migrateKeyStore(admin);
  counted = countingQueryable(fromPgPool(database.pool()));
  behind = new PostgresKeyStore({ db: counted.db, closeDatabase: true, wallNow: () => Date.now() - HOUR });
  ahead = new PostgresKeyStore({ db: fromPgPool(database.pool()), closeDatabase: true, wallNow: () => Date.now() + HOUR });
});

afterAll(async () => {
  await Promise.all([behind?.close(), ahead?.close()]);
  await admin?.close();
  await database?.drop();
});

describe('key expiry on PostgreSQL', () => {
  it('migration 7 adds expires_at (null by default) and allows one expired event per key', async () => {
    const { rows } = await admin.query<{ is_nullable: string; data_type: string }>(
      `select is_nullable, data_type from information_schema.columns where table_name = $1 and column_name = 'expires_at'`,
      [KEYS_TABLE],
    );
    expect(rows).toEqual([{ is_nullable: 'YES', data_type: 'timestamp with time zone' }]);
    const index = await admin.query<{ indexdef: string }>(`select indexdef from pg_indexes where indexname = $1`, [
      `${KEY_EVENTS_TABLE}_expired_once`,
    ]);
    expect(index.rows[0]?.indexdef).toMatch(/UNIQUE INDEX .* \(key_id\) WHERE \(type = 'expired'::text\)/);
  });

  it("keeps each instance's clock on the database's, an hour off either way", async () => {
    const key = sampleKeyRecord({ accountId: 'acct_clock', expiresAt: new Date(Date.now() + HOUR * 24) });
    await behind.create(key);
    await cachedOn(behind, key.id);
    await cachedOn(ahead, key.id);
    const before = await databaseNow();
    const [b, a] = [behind.now(), ahead.now()];
    const after = await databaseNow();
    // Each within a second of the database's time, though their own clocks are an hour off.
    for (const now of [b, a]) {
      expect(now).toBeGreaterThan(before - 1000);
      expect(now).toBeLessThan(after + 1000);
    }
  });

  it('refuses a key expired by the database clock on every instance, from memory: no query per request', async () => {
    const expiresAt = new Date((await databaseNow()) - 60_000);
    const expired = sampleKeyRecord({ accountId: 'acct_expired', expiresAt });
    await behind.create(expired);
    // Cached (an expired key is still active to the store), so the authenticator decides alone.
    await cachedOn(behind, expired.id);
    await cachedOn(ahead, expired.id);
    // By its own clock (an hour behind), `behind` would take the key: the database's clock governs.
    expect(expiresAt.getTime()).toBeGreaterThan(Date.now() - HOUR);
    const lookups = counted.count('drops_auth_keys_find_active');
    for (const store of [behind, ahead]) {
      const authenticator = createAuthenticator({ keyStore: store });
      for (let i = 0; i < 20; i++) {
        const error = await authenticator.authenticate(`Bearer ${expired.secret}`).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(UnauthenticatedError);
        expect((error as UnauthenticatedError).reason).toBe('expired_key');
      }
    }
    expect(counted.count('drops_auth_keys_find_active')).toBe(lookups);
    // One 'expired' event, though both instances noticed it, forty times; one insert from `behind`.
    const rows = await eventually(async () => {
      const { rows } = await admin.query<{ type: string; at: Date; actor: string }>(
        `select type, at, actor from ${KEY_EVENTS_TABLE} where key_id = $1 and type = 'expired'`,
        [expired.id],
      );
      return rows.length > 0 ? rows : undefined;
    });
    expect(rows).toEqual([{ type: 'expired', at: expiresAt, actor: expired.id }]);
    expect(counted.count('drops_auth_keys_record_expired')).toBe(1);
  });

  it('takes a key until the database clock reaches its expiry, then refuses it', async () => {
    const expiresAt = new Date((await databaseNow()) + 1500);
    const key = sampleKeyRecord({ accountId: 'acct_soon', expiresAt });
    await ahead.create(key);
    const authenticator = createAuthenticator({ keyStore: ahead });
    // An hour ahead by its own clock, the instance still takes the key: the database says it is early.
    expect((await authenticator.authenticate(`Bearer ${key.secret}`)).accountId).toBe('acct_soon');
    await eventually(() =>
      authenticator.authenticate(`Bearer ${key.secret}`).then(
        () => undefined,
        (error: unknown) => (error instanceof UnauthenticatedError ? true : undefined),
      ),
    );
    expect(await databaseNow()).toBeGreaterThanOrEqual(expiresAt.getTime() - 1000);
  });
});
