import { UnavailableError, type KeyStore } from '@drops/auth';
import { sampleKeyRecord, type TcpProxy } from '@drops/auth/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openPGliteKeyStore, openPostgresKeyStore, type OpenKeyStoreOptions } from './open-key-store.js';
import { openPGlite } from './open-pglite.js';
import { openPostgres } from './open-postgres.js';
import { PostgresKeyStore } from './postgres-key-store.js';
import { freshDatabase, type FreshDatabase } from './test-support/fresh-database.js';
import { eventually } from './test-support/eventually.js';
import { pgliteDataDir, type PGliteDir } from './test-support/pglite-data-dir.js';
import { proxyInFront } from './test-support/proxy-in-front.js';

// Every documented store option of the two `open…KeyStore` factories must reach the store: each
// test here sets one option to a value whose effect differs from the default's, and observes it.

let database: FreshDatabase;
let proxy: TcpProxy;
/** The database's URL through `proxy`. */
let proxiedUrl: string;

beforeAll(async () => {
  database = await freshDatabase('options');
  ({ proxy, url: proxiedUrl } = await proxyInFront(database.url));
});

/** PGlite folders of the running test, removed after it (their stores are closed by then). */
const pgliteDirs: PGliteDir[] = [];

/** A fresh PGlite data folder of the test's own (a copy of the run's cluster). */
async function freshPGliteDir(): Promise<string> {
  const dir = await pgliteDataDir();
  pgliteDirs.push(dir);
  return dir.dataDir;
}

afterAll(async () => {
  await proxy?.close();
  await database?.drop();
});

afterEach(async () => {
  vi.useRealTimers();
  for (const dir of pgliteDirs.splice(0)) await dir.remove();
});

/** A test that opens PGlite (a copy of the run's cluster, migrated at open): seconds on a busy two-core machine. */
const FRESH_PGLITE_MS = 60_000;

const factories: Record<string, (options: OpenKeyStoreOptions) => Promise<PostgresKeyStore>> = {
  openPGliteKeyStore: async (options) => openPGliteKeyStore({ dataDir: await freshPGliteDir(), ...options }),
  openPostgresKeyStore: (options) => openPostgresKeyStore({ connectionString: database.url, ...options }),
};

async function lastUsedOf(store: KeyStore, accountId: string): Promise<Date | null | undefined> {
  const [key] = await store.listByAccount(accountId);
  return key?.lastUsedAt;
}

describe.each(Object.entries(factories))('%s passes every store option on', (name, open) => {
  it(
    'minUseIntervalMs: 0 records a second use a second after the first (the default would skip it)',
    async () => {
      const store = await open({ minUseIntervalMs: 0 });
      const key = sampleKeyRecord({ accountId: `acct_min_use_${name}` });
      await store.create(key);
      store.recordUse(key.id, new Date('2026-06-01T00:00:00Z'));
      store.recordUse(key.id, new Date('2026-06-01T00:00:01Z'));
      await store.flushUses();
      expect(await lastUsedOf(store, key.accountId)).toEqual(new Date('2026-06-01T00:00:01Z'));
      await store.close();
    },
    FRESH_PGLITE_MS,
  );

  it(
    'flushIntervalMs: recorded uses are written when that interval ticks, not before',
    async () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      const store = await open({ flushIntervalMs: 1_000 });
      const key = sampleKeyRecord({ accountId: `acct_flush_${name}` });
      await store.create(key);
      store.recordUse(key.id, new Date('2026-06-01T00:00:00Z'));
      vi.advanceTimersByTime(999);
      expect(await lastUsedOf(store, key.accountId)).toBeNull();
      vi.advanceTimersByTime(1);
      // The write started on the tick; on a pool the read may run beside it, so wait for it to land.
      const lastUsed = await eventually(async () => (await lastUsedOf(store, key.accountId)) ?? undefined);
      expect(lastUsed).toEqual(new Date('2026-06-01T00:00:00Z'));
      await store.close();
    },
    FRESH_PGLITE_MS,
  );

  it(
    'onError: hears a failed write of recorded uses',
    async () => {
      const errors: unknown[] = [];
      const store = await open({ onError: (error) => errors.push(error) });
      const key = sampleKeyRecord({ accountId: `acct_on_error_${name}` });
      await store.create(key);
      // A date the write cannot encode makes the write fail without touching the database.
      store.recordUse(key.id, new Date(Number.NaN));
      await store.flushUses();
      expect(errors).toHaveLength(1);
      await store.close();
    },
    FRESH_PGLITE_MS,
  );

  it('refuses an unknown option with a TypeError that names it', async () => {
    await expect(open({ maxCacheKeys: 5 } as never)).rejects.toThrow(TypeError);
    await expect(open({ maxCacheKeys: 5 } as never)).rejects.toThrow(/maxCacheKeys/);
    await expect(open({ closeDatabase: false } as never)).rejects.toThrow(/closeDatabase/);
  });
});

describe('openPGliteKeyStore: maxCachedKeys', () => {
  /** How many of these keys the store answers from memory right now (a hit is not a promise). */
  function cachedOf(store: PostgresKeyStore, ids: readonly string[]): { hits: number; done: Promise<unknown> } {
    const answers = ids.map((id) => store.findActive(id));
    return { hits: answers.filter((a) => !(a instanceof Promise)).length, done: Promise.all(answers) };
  }

  it.each([
    [2, 2],
    [0, 0],
  ])(
    'with maxCachedKeys %i, holds at most %i of 5 keys found',
    async (maxCachedKeys, expected) => {
      const store = await openPGliteKeyStore({ dataDir: await freshPGliteDir(), maxCachedKeys });
      const keys = Array.from({ length: 5 }, () => sampleKeyRecord({ accountId: 'acct_cache' }));
      for (const key of keys) {
        await store.create(key);
        await store.findActive(key.id);
      }
      const ids = keys.map((k) => k.id);
      const now = cachedOf(store, ids);
      await now.done;
      expect(now.hits).toBe(expected);
      await store.close();
    },
    FRESH_PGLITE_MS,
  );
});

describe('openPostgresKeyStore: queryTimeoutMs', () => {
  it('answers 503 within that budget when the database stops answering', async () => {
    // 1 s: room for the opening and the mint on a loaded machine (200 ms timed a mint out in a CI
    // rehearsal), and still far under the 2.5 s the lookup is given below.
    const store = await openPostgresKeyStore({ connectionString: proxiedUrl, queryTimeoutMs: 1_000 });
    try {
      const key = sampleKeyRecord({ accountId: 'acct_timeout' });
      await store.create(key);
      proxy.stall();
      // The default budget (5 s) is far longer than this bound: only the option makes it in time.
      const outcome = await Promise.race([
        Promise.resolve(store.findActive(key.id)).then(
          () => 'answered',
          (error: unknown) => error,
        ),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 2.5 s'), 2_500).unref()),
      ]);
      expect(outcome).toBeInstanceOf(UnavailableError);
    } finally {
      proxy.restore();
      await store.close();
    }
  });
});

describe('openPostgresKeyStore: the pool options', () => {
  const raceAgainst = async (work: Promise<unknown>, ms: number): Promise<unknown> =>
    Promise.race([
      work.then(
        () => 'answered',
        (error: unknown) => error,
      ),
      new Promise((resolve) => setTimeout(() => resolve(`still waiting after ${ms} ms`), ms).unref()),
    ]);

  it('maxConnections: 16 lookups at once open at most that many connections', async () => {
    const store = await openPostgresKeyStore({ connectionString: proxiedUrl, maxConnections: 2 });
    try {
      const key = sampleKeyRecord({ accountId: 'acct_pool' });
      await store.create(key);
      await Promise.all(Array.from({ length: 16 }, () => store.findActive(key.id)));
      expect(proxy.openConnections).toBeGreaterThan(0);
      expect(proxy.openConnections).toBeLessThanOrEqual(2);
    } finally {
      await store.close();
    }
  });

  it('listenConnectionString: the listening session (LISTEN and lease) runs there, every other statement through connectionString', async () => {
    const listenUrl = new URL(database.url);
    listenUrl.searchParams.set('application_name', 'drops_listener');
    const store = await openPostgresKeyStore({
      connectionString: proxiedUrl,
      listenConnectionString: listenUrl.toString(),
      maxConnections: 2,
    });
    await store.ready();
    const key = sampleKeyRecord({ accountId: 'acct_listen' });
    await store.create(key);
    const admin = await openPostgres({ connectionString: database.url });
    const { rows } = await admin.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where application_name = 'drops_listener' and datname = current_database()`,
    );
    await admin.close();
    expect(rows[0]?.n).toBe(1); // the lease session, outside the proxy
    expect(proxy.openConnections).toBeLessThanOrEqual(2); // the pool's, none of them the lease session
    await store.close();
  });

  it('onIdleError hears idle connections drop; connectionTimeoutMs bounds the wait for a new one (503)', async () => {
    const idleErrors: Error[] = [];
    const store = await openPostgresKeyStore({
      connectionString: proxiedUrl,
      // 1 s: room for a new connection on a loaded machine, still far under the 2.5 s below.
      connectionTimeoutMs: 1_000,
      queryTimeoutMs: 60_000,
      onIdleError: (error) => idleErrors.push(error),
    });
    try {
      const key = sampleKeyRecord({ accountId: 'acct_connect' });
      await store.create(key);
      proxy.cut(); // the idle connections drop...
      for (let i = 0; i < 50 && idleErrors.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(idleErrors.length).toBeGreaterThan(0);
      proxy.restore();
      proxy.stall(); // ...and a new one is accepted but never answers
      // The default (5 s) is far longer than this bound: only the option makes it in time.
      // (A listing: a key lookup without its lease is a 503 at once, with no connection at all.)
      expect(await raceAgainst(store.listByAccount('acct_connect'), 2_500)).toBeInstanceOf(UnavailableError);
    } finally {
      proxy.restore();
      await store.close();
    }
  });
});

describe('the openers refuse unknown options', () => {
  it('openPGlite and openPostgres refuse a misspelt option with a TypeError that names it', async () => {
    await expect(openPGlite({ dataDir: ':memory:', datadir: 'x' } as never)).rejects.toThrow(/datadir/);
    await expect(openPostgres({ connectionString: database.url, maxConnection: 3 } as never)).rejects.toThrow(TypeError);
  });

  it('the PostgresKeyStore constructor refuses one too', async () => {
    const db = await openPostgres({ connectionString: database.url });
    expect(() => new PostgresKeyStore({ db, queryTimeout: 5 } as never)).toThrow(/queryTimeout/);
    await db.close();
  });
});
