// Issue 14: "a crash between revocation and event write loses neither". Every change and its event
// are one transaction, so a failure at the event's insert (a trigger that raises, or the session
// killed right there) leaves the key exactly as it was and no event; without the failure, both.
import { UnavailableError } from '@drops/auth';
import { sampleKeyRecord } from '@drops/auth/testing/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromPgPool } from './from-pg-pool.js';
import { KEY_EVENTS_TABLE, KEYS_TABLE, migrateKeyStore } from './key-store-migrations.js';
import { PostgresKeyStore } from './postgres-key-store.js';
import type { Queryable } from './queryable.js';
import { freshPGlite } from './test-support/pglite-data-dir.js';
import { freshDatabase, type FreshDatabase } from './test-support/fresh-database.js';

const SCANNING = { source: 'github_secret_scanning', actor: 'github', ip: null, userAgent: null, url: 'https://github.com/o/r' } as const;

/** What the trigger on the event table does to the transaction writing an event. */
const FAILURES = {
  raise: `raise exception 'simulated failure writing a key event'`,
  // The backend ends itself in the middle of the transaction: a real crash of the session.
  terminate: `perform pg_terminate_backend(pg_backend_pid())`,
} as const;

type Failure = keyof typeof FAILURES;

async function failEventWrites(db: Queryable, failure: Failure): Promise<void> {
  await db.exec(`
    create or replace function drops_test_fail_event() returns trigger language plpgsql as $fn$
    begin ${FAILURES[failure]}; return new; end $fn$;
    create trigger drops_test_fail_event before insert on ${KEY_EVENTS_TABLE}
      for each row execute function drops_test_fail_event();
  `);
}

async function allowEventWrites(db: Queryable): Promise<void> {
  await db.exec(`drop trigger if exists drops_test_fail_event on ${KEY_EVENTS_TABLE}`);
}

async function eventTypes(db: Queryable, keyId: string): Promise<string[]> {
  const { rows } = await db.query<{ type: string }>(`select type from ${KEY_EVENTS_TABLE} where key_id = $1 order by seq`, [keyId]);
  return rows.map((r) => r.type);
}

async function keyRow(db: Queryable, keyId: string): Promise<{ revoked_at: Date | null; last_used_at: Date | null } | undefined> {
  const { rows } = await db.query<{ revoked_at: Date | null; last_used_at: Date | null }>(
    `select revoked_at, last_used_at from ${KEYS_TABLE} where id = $1`,
    [keyId],
  );
  return rows[0];
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => expect.fail(`expected a rejection, got ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
}

function describeAtomicity(engine: string, open: () => Promise<Queryable>, failures: readonly Failure[]): void {
  describe(`key events are written in the transaction of their change, on ${engine}`, () => {
    let db: Queryable;
    let store: PostgresKeyStore;
    const errors: unknown[] = [];

    beforeAll(async () => {
      db = await open();
      await migrateKeyStore(db);
      store = new PostgresKeyStore({ db, cache: false, maxCachedKeys: 0, minUseIntervalMs: 0, onError: (e) => void errors.push(e) });
    });

    afterAll(async () => {
      await store?.close();
      await db?.close();
    });

    for (const failure of failures) {
      describe(`when the event write fails (${failure})`, () => {
        it('a revocation is not kept: the key stays active, with no revoked event; then both are kept', async () => {
          const key = sampleKeyRecord({ accountId: 'acct_atomic_revoke' });
          await store.create(key);
          await failEventWrites(db, failure);
          try {
            expect(await rejection(store.revoke(key.accountId, key.id, { at: new Date() }))).toBeInstanceOf(UnavailableError);
            expect(await rejection(store.revokeMany([key.id], { at: new Date(), event: SCANNING }))).toBeInstanceOf(UnavailableError);
          } finally {
            await allowEventWrites(db);
          }
          expect(await keyRow(db, key.id)).toMatchObject({ revoked_at: null });
          expect(await store.findActive(key.id)).toEqual({ id: key.id, accountId: key.accountId, expiresAt: null });
          expect(await eventTypes(db, key.id)).toEqual(['minted']);

          expect(await store.revoke(key.accountId, key.id, { at: new Date() })).toBe(true);
          expect(await store.findActive(key.id)).toBeNull();
          expect(await eventTypes(db, key.id)).toEqual(['minted', 'revoked']);
        });

        it('a batch revocation keeps none of its keys revoked; then all, with one event each', async () => {
          const keys = [sampleKeyRecord({ accountId: 'acct_atomic_many_a' }), sampleKeyRecord({ accountId: 'acct_atomic_many_b' })];
          for (const k of keys) await store.create(k);
          await failEventWrites(db, failure);
          try {
            await rejection(
              store.revokeMany(
                keys.map((k) => k.id),
                { at: new Date(), event: SCANNING },
              ),
            );
          } finally {
            await allowEventWrites(db);
          }
          for (const k of keys) {
            expect(await store.findActive(k.id)).not.toBeNull();
            expect(await eventTypes(db, k.id)).toEqual(['minted']);
          }
          expect(
            (
              await store.revokeMany(
                keys.map((k) => k.id),
                { at: new Date(), event: SCANNING },
              )
            ).map((r) => r.status),
          ).toEqual(['revoked', 'revoked']);
          for (const k of keys) expect(await eventTypes(db, k.id)).toEqual(['minted', 'revoked']);
        });

        it('an operator revocation in SQL is not kept either', async () => {
          const key = sampleKeyRecord({ accountId: 'acct_atomic_operator' });
          await store.create(key);
          await failEventWrites(db, failure);
          try {
            await rejection(db.query('select * from drops_auth_revoke_key($1)', [key.id]));
          } finally {
            await allowEventWrites(db);
          }
          expect(await keyRow(db, key.id)).toMatchObject({ revoked_at: null });
          expect(await eventTypes(db, key.id)).toEqual(['minted']);
        });

        it('a mint is not kept without its event, through create or createWithinLimit', async () => {
          const plain = sampleKeyRecord({ accountId: 'acct_atomic_mint' });
          const limited = sampleKeyRecord({ accountId: 'acct_atomic_mint' });
          await failEventWrites(db, failure);
          try {
            expect(await rejection(store.create(plain))).toBeInstanceOf(UnavailableError);
            expect(await rejection(store.createWithinLimit(limited, 10))).toBeInstanceOf(UnavailableError);
          } finally {
            await allowEventWrites(db);
          }
          for (const k of [plain, limited]) {
            expect(await keyRow(db, k.id)).toBeUndefined();
            expect(await eventTypes(db, k.id)).toEqual([]);
          }
          await store.create(plain);
          expect(await store.createWithinLimit(limited, 10)).toBe(true);
          for (const k of [plain, limited]) expect(await eventTypes(db, k.id)).toEqual(['minted']);
        });

        it('a first use is not written without its event, and is written with it on the retry', async () => {
          const key = sampleKeyRecord({ accountId: 'acct_atomic_use' });
          await store.create(key);
          const at = new Date('2026-07-01T00:00:00Z');
          errors.length = 0;
          await failEventWrites(db, failure);
          try {
            store.recordUse(key.id, at, () => ({ ip: '192.0.2.44', userAgent: 'ci' }));
            await store.flushUses();
          } finally {
            await allowEventWrites(db);
          }
          expect(errors).toHaveLength(1); // heard by onError, kept for the retry
          expect(await keyRow(db, key.id)).toMatchObject({ last_used_at: null });
          expect(await eventTypes(db, key.id)).toEqual(['minted']);

          await store.flushUses();
          expect(await keyRow(db, key.id)).toMatchObject({ last_used_at: at });
          expect(await eventTypes(db, key.id)).toEqual(['minted', 'first_used']);
          const { rows } = await db.query(`select ip, user_agent from ${KEY_EVENTS_TABLE} where key_id = $1 and type = 'first_used'`, [
            key.id,
          ]);
          expect(rows).toEqual([{ ip: '192.0.2.44', user_agent: 'ci' }]);
        });
      });
    }
  });
}

let database: FreshDatabase;

beforeAll(async () => {
  database = await freshDatabase('key_events');
});

afterAll(async () => {
  await database?.drop();
});

describeAtomicity('PostgreSQL', async () => fromPgPool(database.pool()), ['raise', 'terminate']);
describeAtomicity('PGlite', () => freshPGlite(), ['raise']);

describe('first use across instances', () => {
  it('writes one first_used event when two instances record the first use at once', async () => {
    const dbA = fromPgPool(database.pool());
    const dbB = fromPgPool(database.pool());
    await migrateKeyStore(dbA);
    const a = new PostgresKeyStore({ db: dbA, cache: false });
    const b = new PostgresKeyStore({ db: dbB, cache: false });
    try {
      const keys = Array.from({ length: 20 }, () => sampleKeyRecord({ accountId: 'acct_first_use_race' }));
      for (const k of keys) await a.create(k);
      for (const [i, k] of keys.entries()) {
        a.recordUse(k.id, new Date(Date.UTC(2026, 6, 1, 0, 0, i)), () => ({ ip: 'a' }));
        b.recordUse(k.id, new Date(Date.UTC(2026, 6, 1, 0, 0, 30 - i)), () => ({ ip: 'b' }));
      }
      await Promise.all([a.flushUses(), b.flushUses()]);
      const { rows } = await dbA.query<{ key_id: string; n: number }>(
        `select key_id, count(*)::int as n from ${KEY_EVENTS_TABLE} where type = 'first_used' and account_id = $1 group by key_id`,
        ['acct_first_use_race'],
      );
      expect(rows.map((r) => r.n)).toEqual(keys.map(() => 1));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
