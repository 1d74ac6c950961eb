import { UnavailableError } from '@drops/auth';
import { sampleKeyRecord, type TcpProxy } from '@drops/auth/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS_TABLE, migrateKeyStore } from './key-store-migrations.js';
import { openPostgres } from './open-postgres.js';
import { PostgresKeyStore } from './postgres-key-store.js';
import type { Queryable } from './queryable.js';
import { freshDatabase, type FreshDatabase } from './test-support/fresh-database.js';
import { proxyInFront } from './test-support/proxy-in-front.js';

// The store reaches its own database through a proxy the test cuts and restores, so no other test
// (and no other file) loses its database.
let database: FreshDatabase;
let proxy: TcpProxy;
/** The database's URL through `proxy`. */
let proxiedUrl: string;
let direct: Queryable;

beforeAll(async () => {
  database = await freshDatabase('outage');
  ({ proxy, url: proxiedUrl } = await proxyInFront(database.url));
  direct = await openPostgres({ connectionString: database.url });
  await migrateKeyStore(direct);
});

afterAll(async () => {
  await direct?.close();
  await proxy?.close();
  await database?.drop();
});

type Outcome = { kind: 'found' } | { kind: 'null' } | { kind: 'unavailable' } | { kind: 'other'; error: unknown };

async function lookUp(store: PostgresKeyStore, id: string, accountId: string): Promise<Outcome> {
  try {
    const found = await store.findActive(id);
    if (found === null) return { kind: 'null' };
    expect(found).toEqual({ id, accountId, expiresAt: null });
    return { kind: 'found' };
  } catch (error) {
    if (error instanceof UnavailableError && error.status === 503 && error.dependency === 'key_store') return { kind: 'unavailable' };
    return { kind: 'other', error };
  }
}

// Without the cache (`cache: false`): every lookup asks the database. The cache's outage
// behaviour (answers from memory for at most one lease, then 503) is in lease/coherent-key-cache.test.ts.
describe('the database going away and coming back, cache off', () => {
  it('answers 503 (never null, never success) during the cut, and works again after with the same store', async () => {
    const errors: unknown[] = [];
    const db = await openPostgres({ connectionString: proxiedUrl, connectionTimeoutMs: 1_000 });
    const store = new PostgresKeyStore({ db, closeDatabase: true, cache: false, onError: (e) => errors.push(e) });
    const key = sampleKeyRecord({ accountId: 'acct_outage' });
    await store.create(key);

    // 32 clients authenticate in a loop while the connection is cut and restored.
    const phase = { current: 'before' as 'before' | 'cut' | 'after', stop: false };
    const seen: Record<'before' | 'cut' | 'after', Outcome[]> = { before: [], cut: [], after: [] };
    const clients = Array.from({ length: 32 }, async () => {
      while (!phase.stop) {
        const started = phase.current;
        const outcome = await lookUp(store, key.id, key.accountId);
        // Count only calls that started and ended in the same phase.
        if (phase.current === started) seen[started].push(outcome);
        await new Promise((r) => setTimeout(r, 2));
      }
    });

    await new Promise((r) => setTimeout(r, 150));
    expect(proxy.openConnections).toBeGreaterThan(0);
    phase.current = 'cut';
    proxy.cut();
    store.recordUse(key.id, new Date('2026-07-01T00:00:00Z')); // never throws, even now
    await expect(store.flushUses()).resolves.toBeUndefined(); // the write fails, is kept for later
    await new Promise((r) => setTimeout(r, 400));
    // Direct calls during the cut: each one rejects with the 503 error.
    await expect(store.findActive(key.id)).rejects.toBeInstanceOf(UnavailableError);
    await expect(store.listByAccount('acct_outage')).rejects.toMatchObject({ status: 503 });

    phase.current = 'after';
    proxy.restore();
    await new Promise((r) => setTimeout(r, 300));
    phase.stop = true;
    await Promise.all(clients);

    expect(seen.before.length).toBeGreaterThan(0);
    expect(seen.before.every((o) => o.kind === 'found')).toBe(true);
    expect(seen.cut.length).toBeGreaterThan(0);
    expect(seen.cut.filter((o) => o.kind === 'null' || o.kind === 'other')).toEqual([]);
    expect(seen.cut.some((o) => o.kind === 'unavailable')).toBe(true);
    // Once the database answers, every call succeeds: no restart, no new store.
    expect(seen.after.length).toBeGreaterThan(0);
    const lastAfter = seen.after.slice(-32);
    expect(lastAfter.every((o) => o.kind === 'found')).toBe(true);
    expect(await store.findActive(key.id)).toEqual({ id: key.id, accountId: 'acct_outage', expiresAt: null });

    // The use recorded during the cut was kept and is written now.
    await store.flushUses();
    expect(errors.length).toBeGreaterThan(0);
    const { rows } = await direct.query(`select last_used_at from ${KEYS_TABLE} where id = $1`, [key.id]);
    expect(rows).toEqual([{ last_used_at: new Date('2026-07-01T00:00:00Z') }]);

    // A revoke made elsewhere (straight to the database) during recovery is seen at once.
    await direct.query(`update ${KEYS_TABLE} set revoked_at = now() where id = $1`, [key.id]);
    expect(await store.findActive(key.id)).toBeNull();
    await store.close();
  });

  it('answers 503 when the database stops answering (a black hole), and works again after', async () => {
    const db = await openPostgres({ connectionString: proxiedUrl, connectionTimeoutMs: 500 });
    const store = new PostgresKeyStore({ db, closeDatabase: true, cache: false, queryTimeoutMs: 300 });
    const key = sampleKeyRecord({ accountId: 'acct_stall' });
    await store.create(key);
    expect(await lookUp(store, key.id, 'acct_stall')).toEqual({ kind: 'found' });

    proxy.stall();
    // Connections stay open and nothing comes back: without a query timeout these would hang.
    const during = await Promise.all(Array.from({ length: 8 }, () => lookUp(store, key.id, 'acct_stall')));
    expect(during).toEqual(Array.from({ length: 8 }, () => ({ kind: 'unavailable' })));

    proxy.restore();
    let after: Outcome = { kind: 'null' };
    for (let attempt = 0; attempt < 20 && after.kind !== 'found'; attempt++) {
      after = await lookUp(store, key.id, 'acct_stall');
      if (after.kind !== 'found') await new Promise((r) => setTimeout(r, 100));
    }
    expect(after).toEqual({ kind: 'found' });
    await store.close();
  }, 20_000);

  it('survives idle connections dropping (no crash) and reconnects on the next lookup', async () => {
    const idleErrors: Error[] = [];
    const db = await openPostgres({ connectionString: proxiedUrl, onIdleError: (e) => idleErrors.push(e) });
    const store = new PostgresKeyStore({ db, closeDatabase: true, cache: false });
    const key = sampleKeyRecord({ accountId: 'acct_idle' });
    await store.create(key);
    await Promise.all([1, 2, 3].map(() => store.findActive(key.id)));
    // The pool now holds idle connections; cutting them emits 'error' on the pool, which must not
    // become an uncaught exception.
    proxy.cut();
    await new Promise((r) => setTimeout(r, 100));
    expect(idleErrors.length).toBeGreaterThan(0);
    await expect(store.findActive(key.id)).rejects.toBeInstanceOf(UnavailableError);
    proxy.restore();
    expect(await store.findActive(key.id)).toEqual({ id: key.id, accountId: 'acct_idle', expiresAt: null });
    await store.close();
  });
});
