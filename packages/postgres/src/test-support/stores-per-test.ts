import type { TcpProxy } from '@drops/auth/testing';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { fromPgPool } from '../from-pg-pool.js';
import { migrateKeyStore } from '../key-store-migrations.js';
import { openPostgres } from '../open-postgres.js';
import { PostgresKeyStore, type PostgresKeyStoreOptions } from '../postgres-key-store.js';
import type { Queryable } from '../queryable.js';
import { freshDatabase, type FreshDatabase } from './fresh-database.js';
import { proxyInFront } from './proxy-in-front.js';

/** How long a store made by {@link storesPerTest} waits for a connection and for a query, unless a test says otherwise. */
export interface StoreTimeouts {
  readonly connectionTimeoutMs: number;
  readonly queryTimeoutMs: number;
}

/** A store's options for {@link StoresPerTest.store}: its own connection to `url` (default: the database), or `db`. */
export type TestStoreOptions = Partial<PostgresKeyStoreOptions> & { url?: string };

/** One migrated database for a test file, and store instances each test opens on it. */
export interface StoresPerTest {
  /** The database, once beforeAll has run. */
  readonly database: FreshDatabase;
  /** Plain SQL, outside every store. */
  readonly direct: Queryable;
  /** A new store instance, closed (with its database) after the test. */
  store(options?: TestStoreOptions): Promise<PostgresKeyStore>;
  /** A TCP proxy to the database, closed after the test, and the URL that reaches the database through it. */
  proxied(): Promise<{ proxy: TcpProxy; url: string }>;
  /** Runs `close` after the test, before what was opened earlier in it. */
  afterTest(close: () => Promise<void>): void;
}

/**
 * For a test file whose tests each start their own store instances (several instances on one
 * database, some through a proxy the test cuts): a fresh database labelled `label`, migrated
 * before all tests; after each test, what it opened closed, last first; after all, the database
 * dropped.
 */
export function storesPerTest(label: string, timeouts: StoreTimeouts): StoresPerTest {
  let database: FreshDatabase | undefined;
  let direct: Queryable | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    database = await freshDatabase(label);
    direct = fromPgPool(database.pool());
    await migrateKeyStore(direct);
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
  });
  afterAll(async () => {
    await direct?.close();
    await database?.drop();
  });
  const setUp = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('storesPerTest: use it inside a test, once beforeAll has run');
    return value;
  };
  const afterTest = (close: () => Promise<void>): void => void cleanups.push(close);
  return {
    get database() {
      return setUp(database);
    },
    get direct() {
      return setUp(direct);
    },
    async store({ url, ...options }: TestStoreOptions = {}): Promise<PostgresKeyStore> {
      const connectionString = url ?? setUp(database).url;
      const db = options.db ?? (await openPostgres({ connectionString, connectionTimeoutMs: timeouts.connectionTimeoutMs }));
      const s = new PostgresKeyStore({ db, closeDatabase: true, queryTimeoutMs: timeouts.queryTimeoutMs, ...options });
      afterTest(() => s.close());
      return s;
    },
    async proxied(): Promise<{ proxy: TcpProxy; url: string }> {
      const proxied = await proxyInFront(setUp(database).url);
      afterTest(() => proxied.proxy.close());
      return proxied;
    },
    afterTest,
  };
}
