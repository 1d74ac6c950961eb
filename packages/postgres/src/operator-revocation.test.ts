// An operator revokes in SQL through drops_auth_revoke_key (docs/revocation.md): since migration 4
// the revocation is in the key's event log too, with source 'operator', and the function an
// operator already called keeps its signature and identity (so grants on it still hold).
import { sampleKeyRecord } from '@drops/auth/testing/conformance';
import { describe, expect, it } from 'vitest';
import { fromPgPool } from './from-pg-pool.js';
import { KEY_EVENTS_TABLE, KEY_STORE_NAMESPACE, keyStoreMigrations, migrateKeyStore } from './key-store-migrations.js';
import { migrate } from './migrate.js';
import { freshDatabase } from './test-support/fresh-database.js';
import { twoCachingStores } from './test-support/two-caching-stores.js';
import { untilAcknowledged } from './test-support/until-acknowledged.js';

/** A, the instance that mints; B, a peer that caches; `sql`, the operator's connection. */
const stores = twoCachingStores('operator');

describe('revoking in SQL (an operator)', () => {
  it('records the revocation as an operator event, and every instance refuses the key once nothing is pending', async () => {
    const { a: store, b: peer, sql: db } = stores;
    const key = sampleKeyRecord({ accountId: 'acct_operator' });
    await store.create(key);
    expect(await peer.findActive(key.id)).not.toBeNull(); // cached by the peer
    const { rows } = await db.query<{ revoked: boolean; revision: string }>('select revoked, revision from drops_auth_revoke_key($1)', [
      key.id,
    ]);
    expect(rows).toEqual([{ revoked: true, revision: expect.any(String) }]);
    await untilAcknowledged(stores.sql, rows[0]!.revision);
    expect(await peer.findActive(key.id)).toBeNull();
    const { events } = await store.listEvents('acct_operator', { limit: 10 });
    expect(events[0]).toEqual({
      type: 'revoked',
      keyId: key.id,
      prefix: key.prefix,
      name: key.name,
      at: expect.any(Date),
      source: 'operator',
      actor: 'postgres', // the database role that ran it
      ip: null,
      userAgent: null,
      url: null,
    });
    // Again: nothing revoked, nothing written.
    const again = await db.query('select revoked from drops_auth_revoke_key($1)', [key.id]);
    expect(again.rows).toEqual([{ revoked: false }]);
    expect((await store.listEvents('acct_operator', { limit: 10 })).events.map((e) => e.type)).toEqual(['revoked', 'minted']);
  });

  it('takes an account and a time as before, and attributes the revocation through the long form', async () => {
    const { a: store, sql: db } = stores;
    const a = sampleKeyRecord({ accountId: 'acct_operator_b' });
    const b = sampleKeyRecord({ accountId: 'acct_operator_b' });
    await store.create(a);
    await store.create(b);
    const at = new Date('2026-08-01T09:00:00Z');
    expect((await db.query('select revoked from drops_auth_revoke_key($1, $2)', [a.id, 'acct_someone_else'])).rows).toEqual([]);
    expect((await db.query('select revoked from drops_auth_revoke_key($1, $2, $3)', [a.id, 'acct_operator_b', at])).rows).toEqual([
      { revoked: true },
    ]);
    await db.query(
      `select * from drops_auth_revoke_key($1, null, $2, 'operator', 'oncall@example.com', '10.0.0.5', 'psql', 'https://tickets.example.com/42')`,
      [b.id, at],
    );
    const { rows } = await db.query(
      `select key_id, at, source, actor, ip, user_agent, url from ${KEY_EVENTS_TABLE} where account_id = $1 and type = 'revoked' order by seq`,
      ['acct_operator_b'],
    );
    expect(rows).toEqual([
      { key_id: a.id, at, source: 'operator', actor: 'postgres', ip: null, user_agent: null, url: null },
      {
        key_id: b.id,
        at,
        source: 'operator',
        actor: 'oncall@example.com',
        ip: '10.0.0.5',
        user_agent: 'psql',
        url: 'https://tickets.example.com/42',
      },
    ]);
  });

  it('writes nothing for an unknown id, and refuses an unknown source', async () => {
    const { a: store, sql: db } = stores;
    const unknown = sampleKeyRecord().id;
    expect((await db.query('select * from drops_auth_revoke_key($1)', [unknown])).rows).toEqual([]);
    const key = sampleKeyRecord({ accountId: 'acct_operator_c' });
    await store.create(key);
    await expect(db.query(`select * from drops_auth_revoke_key($1, null, now(), 'cron')`, [key.id])).rejects.toThrow(/check constraint/);
    expect(await store.findActive(key.id)).not.toBeNull();
    const { rows } = await db.query(`select count(*)::int as n from ${KEY_EVENTS_TABLE} where key_id = any($1)`, [[unknown, key.id]]);
    expect(rows).toEqual([{ n: 1 }]); // the mint only
  });
});

describe('migrations 4 and 5', () => {
  it('replaces the three-argument revocation function in place: same identity, so grants on it still hold', async () => {
    const scratch = await freshDatabase('operator_migration');
    const scratchDb = fromPgPool(scratch.pool());
    try {
      await migrate(scratchDb, { namespace: KEY_STORE_NAMESPACE, migrations: keyStoreMigrations.filter((m) => m.version <= 3) });
      const oid = `select 'drops_auth_revoke_key(text, text, timestamptz)'::regprocedure::oid::int as oid`;
      const before = (await scratchDb.query<{ oid: number }>(oid)).rows[0]?.oid;
      expect(
        await migrate(scratchDb, { namespace: KEY_STORE_NAMESPACE, migrations: keyStoreMigrations.filter((m) => m.version <= 4) }),
      ).toEqual({ applied: [4] });
      expect((await scratchDb.query<{ oid: number }>(oid)).rows[0]?.oid).toBe(before);
      // Migration 5 replaces the long form in place too (the trigger takes over its NOTIFY).
      const longForm = `select 'drops_auth_revoke_key(text, text, timestamptz, text, text, text, text, text)'::regprocedure::oid::int as oid`;
      const longBefore = (await scratchDb.query<{ oid: number }>(longForm)).rows[0]?.oid;
      expect(await migrateKeyStore(scratchDb)).toEqual({ applied: keyStoreMigrations.filter((m) => m.version > 4).map((m) => m.version) });
      expect((await scratchDb.query<{ oid: number }>(longForm)).rows[0]?.oid).toBe(longBefore);
      expect((await scratchDb.query<{ oid: number }>(oid)).rows[0]?.oid).toBe(before);
    } finally {
      await scratch.drop();
    }
  });
});
