// Expand/contract upgrades (docs/postgres.md, "Upgrading"): the next migration is applied while
// instances built on the previous level keep authenticating and revoking, with no failure and no
// key accepted after its revocation resolved. Here: the newest migration under stores running on
// a database at the level before it. This code's leased cache needs the newest level (its
// membership of active ids is completed by migration 11's announcements of mints), so the stores
// running across the migration are uncached (they use nothing of it; code of the level before
// ignores the '+' announcements); a leased instance started at the new level then knows the keys,
// a mint on another instance the moment it resolves, and a plain-SQL revocation.
import { sampleKeyRecord } from '@drops/auth/testing/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromPgPool } from './from-pg-pool.js';
import { KEY_STORE_NAMESPACE, KEYS_TABLE, keyStoreMigrations, migrateKeyStore } from './key-store-migrations.js';
import { migrate } from './migrate.js';
import { PostgresKeyStore } from './postgres-key-store.js';
import type { Queryable } from './queryable.js';
import { cachedOn } from './test-support/cached-on.js';
import { freshDatabase, type FreshDatabase } from './test-support/fresh-database.js';
import { untilAcknowledged } from './test-support/until-acknowledged.js';

/** The newest migration's version (versions may skip a number while work lands in parallel). */
const LATEST_VERSION = Math.max(...keyStoreMigrations.map((m) => m.version));

let database: FreshDatabase;
let deploy: Queryable;
let a: PostgresKeyStore;
let b: PostgresKeyStore;
let c: PostgresKeyStore | undefined;

beforeAll(async () => {
  database = await freshDatabase('upgrade');
  deploy = fromPgPool(database.pool());
  const previous = keyStoreMigrations.filter((m) => m.version < LATEST_VERSION);
  await migrate(deploy, { namespace: KEY_STORE_NAMESPACE, migrations: previous });
  a = new PostgresKeyStore({ db: fromPgPool(database.pool()), closeDatabase: true, cache: false });
  b = new PostgresKeyStore({ db: fromPgPool(database.pool()), closeDatabase: true, cache: false });
});

afterAll(async () => {
  await Promise.all([a?.close(), b?.close(), c?.close()]);
  await deploy?.close();
  await database?.drop();
});

describe('applying the next migration under running instances', () => {
  it('keeps them authenticating and revoking: no failure, no key accepted once its revoke resolved', async () => {
    const keys = Array.from({ length: 24 }, () => sampleKeyRecord({ accountId: 'acct_upgrade' }));
    for (const key of keys) {
      await a.create(key);
      expect(await b.findActive(key.id)).toEqual({ id: key.id, accountId: 'acct_upgrade', expiresAt: null });
    }
    const revoked = keys.slice(0, 12);
    const kept = keys.slice(12);
    const traffic = revoked.map(async (key, i) => {
      const [revoker, other] = i % 2 === 0 ? [a, b] : [b, a];
      expect(await revoker.revoke('acct_upgrade', key.id, { at: new Date() })).toBe(true);
      expect(await other.findActive(key.id)).toBeNull();
      expect(await revoker.findActive(key.id)).toBeNull();
      for (const k of kept) expect(await other.findActive(k.id)).toEqual({ id: k.id, accountId: 'acct_upgrade', expiresAt: null });
    });
    const [upgrade] = await Promise.all([migrateKeyStore(deploy), ...traffic]);
    expect(upgrade).toEqual({ applied: [LATEST_VERSION] });

    // At the new level, a leased instance knows every active key, and a mint on another instance
    // the moment it resolves.
    c = new PostgresKeyStore({ db: fromPgPool(database.pool()), closeDatabase: true });
    for (const k of kept) expect(await c.findActive(k.id)).toEqual({ id: k.id, accountId: 'acct_upgrade', expiresAt: null });
    const minted = sampleKeyRecord({ accountId: 'acct_upgrade' });
    await a.create(minted);
    expect(await c.findActive(minted.id)).toEqual({ id: minted.id, accountId: 'acct_upgrade', expiresAt: null });
    await cachedOn(c, kept[0]!.id);

    // A plain-SQL revocation reaches the instances.
    await deploy.query(`update ${KEYS_TABLE} set revoked_at = now() where id = $1`, [kept[0]!.id]);
    const { rows } = await deploy.query<{ revision: string }>('select revision from drops_auth_revision');
    await untilAcknowledged(deploy, rows[0]!.revision);
    expect(await a.findActive(kept[0]!.id)).toBeNull();
    expect(await b.findActive(kept[0]!.id)).toBeNull();
    expect(await c.findActive(kept[0]!.id)).toBeNull();
  });
});
