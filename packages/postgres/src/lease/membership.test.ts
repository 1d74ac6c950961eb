import { UnavailableError } from '@drops/auth';
import { sampleKeyRecord } from '@drops/auth/testing';
import { describe, expect, it } from 'vitest';
import type { DedicatedSession } from '../dedicated-session.js';
import { openPostgres } from '../open-postgres.js';
import type { PostgresKeyStore } from '../postgres-key-store.js';
import type { Queryable } from '../queryable.js';
import { BULK_ANNOUNCEMENT_KEYS, KEY_CHANGES_CHANNEL } from '../key-store-migrations.js';
import { cachedOn } from '../test-support/cached-on.js';
import { countingQueryable } from '../test-support/counting-queryable.js';
import { eventually } from '../test-support/eventually.js';
import { revisionRowUpdates } from '../test-support/revision-row-updates.js';
import { storesPerTest } from '../test-support/stores-per-test.js';
import { untilAcknowledged } from '../test-support/until-acknowledged.js';

// docs/revocation.md#membership, on a real PostgreSQL: every instance holds the ids of all active
// keys under its lease, so unknown and revoked ids cost no query, and a mint resolves only once
// every instance knows the key.
const stores = storesPerTest('membership', { connectionTimeoutMs: 2_000, queryTimeoutMs: 5_000 });
const { store } = stores;

const randomId = (): string => sampleKeyRecord().id;

async function outcome(s: PostgresKeyStore, id: string): Promise<'accepted' | 'refused' | 'unavailable'> {
  try {
    return (await s.findActive(id)) === null ? 'refused' : 'accepted';
  } catch (error) {
    if (error instanceof UnavailableError && error.status === 503) return 'unavailable';
    throw error;
  }
}

/** The scratch database's committed transactions, server-side (every backend's, flushed). */
async function keyTableScans(): Promise<number> {
  // A backend reports its counts when it goes idle, at most once a second, or else within
  // PostgreSQL's idle flush interval (10 s): after 11 s every earlier statement is counted.
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  await stores.direct.query('select pg_stat_clear_snapshot()');
  const { rows } = await stores.direct.query<{ n: string }>(
    `select (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::text as n from pg_stat_user_tables where relname = 'drops_auth_keys'`,
  );
  return Number(rows[0]?.n);
}

describe('membership of active keys under the lease', () => {
  it('50 keys minted on A each work on B at once, though B had just answered random keys', async () => {
    const a = await store();
    const b = await store();
    for (let i = 0; i < 50; i++) {
      for (let j = 0; j < 20; j++) expect(await b.findActive(randomId())).toBeNull();
      const key = sampleKeyRecord({ accountId: 'acct_mint' });
      if (i % 2 === 0) await a.create(key);
      else expect(await a.createWithinLimit(key, 1_000)).toBe(true);
      // No retry, no wait: the mint resolved, so B knows the key.
      expect(await b.findActive(key.id)).toEqual({ id: key.id, accountId: 'acct_mint', expiresAt: null });
    }
  });

  it('a flood of 2,000 random keys costs at most 0.01 key-table scans per request (none, in fact)', async () => {
    const counting = countingQueryable(await openPostgres({ connectionString: stores.database.url }));
    // Long leases: a renewal every 20 s, so the window below holds few of them.
    const a = await store({ leaseMs: 60_000 });
    const b = await store({ db: counting.db, leaseMs: 60_000 });
    const keys = Array.from({ length: 20 }, () => sampleKeyRecord({ accountId: 'acct_flood' }));
    for (const key of keys) await a.create(key);
    expect(await b.findActive(keys[0]!.id)).not.toBeNull(); // B holds its lease and membership
    const revoked = keys[1]!;
    expect(await a.revoke('acct_flood', revoked.id, { at: new Date() })).toBe(true);

    const queriesBefore = counting.count();
    const scansBefore = await keyTableScans();
    const requests = 2_000;
    const outcomes = await Promise.all(Array.from({ length: requests }, (_, i) => outcome(b, i % 100 === 0 ? revoked.id : randomId())));
    const scans = (await keyTableScans()) - scansBefore;
    expect(outcomes.every((o) => o === 'refused')).toBe(true);
    expect(counting.count() - queriesBefore).toBeLessThanOrEqual(requests * 0.01);
    // Server-side, every backend's scans of the key table: the flood adds none. (Counted per table,
    // not per transaction: lease renewals and heartbeats commit on their own clock, and under load
    // the flood's seconds hold more of them.)
    expect(scans / requests).toBeLessThanOrEqual(0.01);
  }, 60_000);

  it('secrets whose ids share a live key id’s first 32 or 64 bits cost no query, live or revoked (no timing oracle)', async () => {
    const counting = countingQueryable(await openPostgres({ connectionString: stores.database.url }));
    const a = await store({ leaseMs: 60_000 });
    const b = await store({ db: counting.db, leaseMs: 60_000 });
    // Key ids are public, so an attacker can search secrets whose ids share a live id's first bits:
    // here the rows take chosen ids instead (the attacker's ids' first 8 or 16 hex digits).
    const attackerIds = Array.from({ length: 30 }, randomId);
    const requests = 300;
    const live = attackerIds.map((id, i) => {
      const digits = i % 2 === 0 ? 8 : 16;
      return sampleKeyRecord({ accountId: 'acct_collide', id: `${id.slice(0, digits)}${randomId().slice(digits)}` });
    });
    for (const key of live) await a.create(key);
    const queries = async (): Promise<number> => {
      const before = counting.count();
      for (let i = 0; i < requests; i++) expect(await outcome(b, attackerIds[i % attackerIds.length]!)).toBe('refused');
      return counting.count() - before;
    };
    expect(await b.findActive(live[0]!.id)).not.toBeNull(); // B holds its lease and membership
    expect(await queries()).toBeLessThanOrEqual(requests * 0.05);
    for (const key of live) await a.revoke('acct_collide', key.id, { at: new Date() });
    expect(await queries()).toBeLessThanOrEqual(requests * 0.05);
  }, 60_000);

  it('without its lease, random keys get a 503 and no query per request', async () => {
    let sessions: DedicatedSession[] = [];
    let allowSessions = true;
    const counting = countingQueryable(await openPostgres({ connectionString: stores.database.url }));
    const openSession = counting.db.openSession!;
    const db: Queryable = {
      ...counting.db,
      openSession: async () => {
        if (!allowSessions) throw new Error('no session (the test refuses it)');
        const session = await openSession();
        sessions.push(session);
        return session;
      },
    };
    const a = await store();
    const b = await store({ db });
    const key = sampleKeyRecord({ accountId: 'acct_no_lease' });
    await a.create(key);
    expect(await b.findActive(key.id)).not.toBeNull();

    // B's lease session dies and no new one opens: B has no lease.
    allowSessions = false;
    const [session] = sessions;
    const { rows } = await session!.query<{ pid: number }>('select pg_backend_pid() as pid');
    await stores.direct.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
    sessions = [];
    const before = counting.count();
    for (let i = 0; i < 50 && (await outcome(b, randomId())) !== 'unavailable'; i++) await new Promise((r) => setTimeout(r, 20));
    const outcomes = await Promise.all(Array.from({ length: 500 }, () => outcome(b, randomId())));
    expect(outcomes.every((o) => o === 'unavailable')).toBe(true);
    expect(await outcome(b, key.id)).toBe('unavailable'); // never a 401 for a key that exists
    expect(counting.count() - before).toBe(0);

    // Sessions allowed again: B takes a lease, rebuilds its membership, and answers from memory.
    allowSessions = true;
    for (let i = 0; i < 500 && (await outcome(b, key.id)) !== 'accepted'; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await outcome(b, key.id)).toBe('accepted');
    expect(await outcome(b, randomId())).toBe('refused');
  });

  it('an instance that never got its lease waits a query timeout at most, then answers 503, with no query', async () => {
    const counting = countingQueryable(await openPostgres({ connectionString: stores.database.url }));
    const db: Queryable = { ...counting.db, openSession: () => Promise.reject(new Error('no session (the test refuses it)')) };
    const s = await store({ db, queryTimeoutMs: 300 });
    const outcomes = await Promise.all(Array.from({ length: 200 }, () => outcome(s, randomId())));
    expect(outcomes.every((o) => o === 'unavailable')).toBe(true);
    expect(counting.count()).toBe(0);
  });

  it('learns a key made active by plain SQL once the instances acknowledged its revision', async () => {
    const a = await store();
    const key = sampleKeyRecord({ accountId: 'acct_sql' });
    expect(await a.findActive(key.id)).toBeNull();
    await stores.direct.query(`insert into drops_auth_keys (id, account_id, prefix, created_at) values ($1, $2, $3, now())`, [
      key.id,
      'acct_sql',
      key.prefix,
    ]);
    const { rows } = await stores.direct.query<{ revision: string }>('select revision::text as revision from drops_auth_revision');
    await untilAcknowledged(stores.direct, rows[0]!.revision);
    expect(await a.findActive(key.id)).toEqual({ id: key.id, accountId: 'acct_sql', expiresAt: null });
  });

  it('a bulk INSERT of 2,000 keys takes the revision row once and every key works on another instance', async () => {
    const a = await store();
    const b = await store();
    expect(await b.findActive(randomId())).toBeNull(); // B holds its lease and membership
    const keys = Array.from({ length: 2_000 }, () => sampleKeyRecord({ accountId: 'acct_bulk' }));
    const { revisionUpdates, revision } = await stores.direct.transaction(async (tx) => {
      const before = await revisionRowUpdates(tx);
      await tx.query(
        `insert into drops_auth_keys (id, account_id, prefix, created_at)
           select id, 'acct_bulk', left(id, 10), now() from unnest($1::text[]) as id`,
        [keys.map((k) => k.id)],
      );
      // One update per statement, not per row (per row, each update walks every version of the
      // row the transaction made before it: quadratic).
      const updates = (await revisionRowUpdates(tx)) - before;
      const read = await tx.query<{ revision: string }>('select drops_auth_taken_revision()::text as revision');
      return { revisionUpdates: updates, revision: read.rows[0]!.revision };
    });
    expect(revisionUpdates).toBe(1);
    await untilAcknowledged(stores.direct, revision);
    // Each key was announced with its own revision, so none is skipped as already applied.
    for (const key of keys) {
      expect(await b.findActive(key.id)).toEqual({ id: key.id, accountId: 'acct_bulk', expiresAt: null });
      expect(await a.findActive(key.id)).toEqual({ id: key.id, accountId: 'acct_bulk', expiresAt: null });
    }
  });

  it('a bulk INSERT of more than 10,000 keys is one announcement: every key works at once, and the membership is re-read', async () => {
    const counting = countingQueryable(await openPostgres({ connectionString: stores.database.url }));
    const b = await store({ db: counting.db });
    expect(await b.findActive(randomId())).toBeNull(); // B holds its lease and membership
    const listener = await stores.database.pool().connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.query(`listen ${KEY_CHANGES_CHANNEL}`);
    const keys = Array.from({ length: BULK_ANNOUNCEMENT_KEYS + 1 }, () => sampleKeyRecord({ accountId: 'acct_bulk_many' }));
    const revision = await stores.direct.transaction(async (tx) => {
      const before = await revisionRowUpdates(tx);
      await tx.query(
        `insert into drops_auth_keys (id, account_id, prefix, created_at)
           select id, 'acct_bulk_many', left(id, 10), now() from unnest($1::text[]) as id`,
        [keys.map((k) => k.id)],
      );
      expect((await revisionRowUpdates(tx)) - before).toBe(1);
      return (await tx.query<{ revision: string }>('select drops_auth_taken_revision()::text as revision')).rows[0]!.revision;
    });
    await eventually(() => (heard.length > 0 ? true : undefined));
    expect(heard).toEqual([`${revision}:!`]);
    listener.release();
    await untilAcknowledged(stores.direct, revision);
    // Acknowledged, so B accepts every one of them now (from the database while its set is stale).
    for (const key of keys.filter((_, i) => i % 20 === 0)) {
      expect(await b.findActive(key.id)).toEqual({ id: key.id, accountId: 'acct_bulk_many', expiresAt: null });
    }
    // Once B has re-read its set, random ids cost no query again, and the bulk keys are members.
    await eventually(async () => {
      const before = counting.count();
      expect(await b.findActive(randomId())).toBeNull();
      return counting.count() === before ? true : undefined;
    });
    const before = counting.count();
    for (let i = 0; i < 200; i++) expect(await b.findActive(randomId())).toBeNull();
    expect(counting.count() - before).toBe(0);
    const last = keys[keys.length - 1]!;
    expect(await b.findActive(last.id)).toEqual({ id: last.id, accountId: 'acct_bulk_many', expiresAt: null });
  });
  it('a transaction revoking more than 10,000 keys announces 10,000 one by one and the rest as one bulk change at commit; no kept key survives it', async () => {
    const b = await store();
    const keys = Array.from({ length: BULK_ANNOUNCEMENT_KEYS + 500 }, () => sampleKeyRecord({ accountId: 'acct_bulk_revoke' }));
    const minted = await stores.direct.transaction(async (tx) => {
      await tx.query(
        `insert into drops_auth_keys (id, account_id, prefix, created_at)
           select id, 'acct_bulk_revoke', left(id, 10), now() from unnest($1::text[]) as id`,
        [keys.map((k) => k.id)],
      );
      return (await tx.query<{ revision: string }>('select drops_auth_taken_revision()::text as revision')).rows[0]!.revision;
    });
    await untilAcknowledged(stores.direct, minted);
    // B keeps some of them in memory, wherever the UPDATE happens to reach them.
    const kept = keys.filter((_, i) => i % 200 === 0);
    for (const key of kept) await cachedOn(b, key.id);

    const listener = await stores.database.pool().connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.query(`listen ${KEY_CHANGES_CHANNEL}`);
    let revision: string;
    try {
      revision = await stores.direct.transaction(async (tx) => {
        await tx.query(`update drops_auth_keys set revoked_at = now() where account_id = 'acct_bulk_revoke'`);
        return (await tx.query<{ revision: string }>('select drops_auth_taken_revision()::text as revision')).rows[0]!.revision;
      });
      await eventually(() => (heard.at(-1) === `${revision}:!` ? true : undefined));
    } finally {
      listener.release();
    }
    expect(heard).toHaveLength(BULK_ANNOUNCEMENT_KEYS + 1);
    expect(new Set(heard.slice(0, -1).map((payload) => payload.split(':')[1])).size).toBe(BULK_ANNOUNCEMENT_KEYS);

    await untilAcknowledged(stores.direct, revision);
    // Acknowledged: B refuses every key it kept, announced one by one or only in the bulk change.
    for (const key of kept) expect(await outcome(b, key.id)).toBe('refused');
    expect(await outcome(b, keys.at(-1)!.id)).toBe('refused');
    expect(await outcome(b, randomId())).toBe('refused');
  });
});
