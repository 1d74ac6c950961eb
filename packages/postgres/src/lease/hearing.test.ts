import { UnavailableError } from '@drops/auth';
import { sampleKeyRecord } from '@drops/auth/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromPgPool } from '../from-pg-pool.js';
import { LEASES_TABLE, migrateKeyStore } from '../key-store-migrations.js';
import { NotificationsUnheardError } from '../notifications-unheard-error.js';
import { PostgresKeyStore } from '../postgres-key-store.js';
import type { Queryable } from '../queryable.js';
import { deafenable } from '../test-support/deafenable.js';
import { freshDatabase, type FreshDatabase } from '../test-support/fresh-database.js';

// docs/revocation.md#a-lease-means-hearing: a lease is held only while its session hears.
let database: FreshDatabase;
let sql: Queryable;
const LEASE = { leaseMs: 600, leaseMarginMs: 100 };

beforeAll(async () => {
  database = await freshDatabase('hearing');
  sql = fromPgPool(database.pool());
  await migrateKeyStore(sql);
});
afterAll(async () => {
  await sql?.close();
  await database?.drop();
});

/** A caching store whose listening sessions hear nothing while `deaf.on`. */
function storeWithEars(deaf: { on: boolean }): PostgresKeyStore {
  return new PostgresKeyStore({ db: deafenable(fromPgPool(database.pool()), () => deaf.on), closeDatabase: true, ...LEASE });
}

describe('a lease means hearing', () => {
  it('ready() rejects with NotificationsUnheardError when the listening session cannot hear its own NOTIFY', async () => {
    const store = storeWithEars({ on: true });
    await expect(store.ready()).rejects.toThrow(NotificationsUnheardError);
    await expect(store.ready()).rejects.toThrow(/listenConnectionString/);
    expect(store.answeringKeys).toBe(false);
    expect(store.notificationsUnheard).toBeGreaterThan(0);
    await store.close();
  });

  it('an instance that stops hearing gives up its lease (503, not 401), others revoke and mint within the bound, and it takes it back once it hears', async () => {
    const deaf = { on: false };
    const listener = storeWithEars(deaf);
    const other = new PostgresKeyStore({ db: fromPgPool(database.pool()), closeDatabase: true, ...LEASE });
    await Promise.all([listener.ready(), other.ready()]);
    const doomed = sampleKeyRecord({ accountId: 'acct_hearing' });
    await other.create(doomed);
    expect(await listener.findActive(doomed.id)).not.toBeNull();

    deaf.on = true;
    // Resolved, not rejected: the wait ended within its bound (lease + lease/3 + margin), the deaf
    // instance having given its row up.
    expect(await other.revoke(doomed.accountId, doomed.id, { at: new Date() })).toBe(true);
    expect(listener.answeringKeys).toBe(false);
    await expect(listener.findActive(doomed.id)).rejects.toThrow(UnavailableError);
    const fresh = sampleKeyRecord({ accountId: 'acct_hearing' });
    await other.create(fresh);
    await expect(listener.findActive(fresh.id)).rejects.toThrow(UnavailableError);
    expect(listener.notificationsUnheard).toBeGreaterThan(0);

    deaf.on = false;
    for (let i = 0; i < 400 && !listener.answeringKeys; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(listener.answeringKeys).toBe(true);
    expect(await listener.findActive(fresh.id)).not.toBeNull();
    expect(await listener.findActive(doomed.id)).toBeNull();
    await Promise.all([listener.close(), other.close()]);
  });

  it('a wait never hangs on a lease renewed without acknowledging (an instance that cannot tell it is deaf): a 503 after the bound', async () => {
    const store = new PostgresKeyStore({ db: fromPgPool(database.pool()), closeDatabase: true, ...LEASE });
    await store.ready();
    const key = sampleKeyRecord({ accountId: 'acct_silent' });
    await store.create(key);
    // A lease row that keeps being renewed and never acknowledges anything.
    await sql.query(
      `insert into ${LEASES_TABLE} (lease_id, instance_id, expires_at, seen_revision) values ('silent/1', 'silent', now() + interval '1 minute', 0)`,
    );
    try {
      const started = performance.now();
      await expect(store.revoke(key.accountId, key.id, { at: new Date() })).rejects.toThrow(UnavailableError);
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(600 + 200 + 100);
      expect(waited).toBeLessThan(3_000);
    } finally {
      await sql.query(`delete from ${LEASES_TABLE} where lease_id = 'silent/1'`);
      await store.close();
    }
  });
});
