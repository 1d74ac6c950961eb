import type { TcpProxy } from '@drops/auth/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateKeyStore } from './key-store-migrations.js';
import { openPostgres } from './open-postgres.js';
import { PostgresKeyStore } from './postgres-key-store.js';
import type { Queryable } from './queryable.js';
import { freshDatabase, type FreshDatabase } from './test-support/fresh-database.js';
import { proxyInFront } from './test-support/proxy-in-front.js';

// Instance A reaches the database through a proxy the test black-holes; B signs the account out
// directly. docs/revocation.md: once B's answer is in, A never answers the old (absent) cut-off.
let database: FreshDatabase;
let proxy: TcpProxy;
/** The database's URL through `proxy`. */
let proxiedUrl: string;
let direct: Queryable;

beforeAll(async () => {
  database = await freshDatabase('session_cutoffs');
  ({ proxy, url: proxiedUrl } = await proxyInFront(database.url));
  direct = await openPostgres({ connectionString: database.url });
  await migrateKeyStore(direct);
});

afterAll(async () => {
  await direct?.close();
  await proxy?.close();
  await database?.drop();
});

/** What A answers: the cut-off, or `'503'` when it rejects. */
async function cutoffOn(store: PostgresKeyStore, accountId: string): Promise<number | null | '503'> {
  try {
    return await store.sessionCutoff(accountId);
  } catch {
    return '503';
  }
}

const event = { source: 'api', actor: 'partition-test', ip: null, userAgent: null, url: null } as const;

describe('sign-out cut-offs on PostgreSQL: a black-holed instance, a bulk plain-SQL change', () => {
  it('never answers the cut-off from before the sign-out once it has answered, and recovers after the heal', async () => {
    const timing = { leaseMs: 1_500, queryTimeoutMs: 300 };
    const a = new PostgresKeyStore({
      db: await openPostgres({ connectionString: proxiedUrl, connectionTimeoutMs: 500 }),
      closeDatabase: true,
      ...timing,
    });
    const b = new PostgresKeyStore({ db: await openPostgres({ connectionString: database.url }), closeDatabase: true, ...timing });
    try {
      await Promise.all([a.ready(), b.ready()]);
      expect(a.sessionCutoff('acct_partitioned')).toBeNull(); // from memory: a value, not a promise

      proxy.stall();
      const at = new Date(b.now());
      const signedOut = b.signOutEverywhere('acct_partitioned', { at, event });
      // Until B answers, A may still answer the old state (it cannot have heard); from then on, never.
      let answered = false;
      void signedOut.then(() => {
        answered = true;
      });
      const seenAfter: (number | null | '503')[] = [];
      while (!answered) {
        const before = answered;
        const seen = await cutoffOn(a, 'acct_partitioned');
        if (before) seenAfter.push(seen);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(await signedOut).toEqual(at);
      for (let i = 0; i < 50; i++) seenAfter.push(await cutoffOn(a, 'acct_partitioned'));
      expect(seenAfter.filter((seen) => seen !== '503' && seen !== at.getTime())).toEqual([]);
      expect(seenAfter).toContain('503');

      proxy.restore();
      let healed: number | null | '503' = '503';
      for (let attempt = 0; attempt < 100 && healed !== at.getTime(); attempt++) {
        healed = await cutoffOn(a, 'acct_partitioned');
        if (healed !== at.getTime()) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(healed).toBe(at.getTime());
      expect(a.sessionCutoff('acct_partitioned')).toBe(at.getTime()); // from memory again
    } finally {
      proxy.restore();
      await Promise.all([a.close(), b.close()]);
    }
  }, 30_000);

  it('applies a plain-SQL cut-off of more than 10,000 accounts (one bulk change): every one refused once acknowledged, then from memory again', async () => {
    const a = new PostgresKeyStore({ db: await openPostgres({ connectionString: database.url }), closeDatabase: true });
    try {
      await a.ready();
      const revision = await direct.transaction(async (tx) => {
        await tx.query(
          "insert into drops_auth_session_cutoffs select 'bulk_' || i, timestamptz '2026-06-01T00:00:00Z' from generate_series(1, 10001) i",
        );
        const { rows } = await tx.query<{ revision: string }>('select drops_auth_taken_revision()::text as revision');
        return Number(rows[0]!.revision);
      });
      for (;;) {
        const { rows } = await direct.query<{ n: number }>('select drops_auth_revocation_pending($1) as n', [revision]);
        if (rows[0]!.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const expected = Date.parse('2026-06-01T00:00:00Z');
      for (const account of ['bulk_1', 'bulk_5000', 'bulk_10001']) expect(await a.sessionCutoff(account)).toBe(expected);
      let fromMemory: unknown;
      for (let attempt = 0; attempt < 100; attempt++) {
        fromMemory = a.sessionCutoff('bulk_7');
        if (typeof fromMemory === 'number') break;
        await fromMemory;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(fromMemory).toBe(expected); // the re-read landed: a value, no query
    } finally {
      await a.close();
    }
  }, 30_000);
});
