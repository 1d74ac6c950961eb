import { migrateKeyStore } from './key-store-migrations.js';
import { openPGlite, type OpenPGliteOptions } from './open-pglite.js';
import { openPostgres, type OpenPostgresOptions } from './open-postgres.js';
import { checkStoreSettings, PostgresKeyStore, type PostgresKeyStoreOptions } from './postgres-key-store.js';
import type { Queryable } from './queryable.js';

/**
 * Store options the `open…KeyStore` factories pass on (the database is theirs).
 *
 * @example
 * ```ts
 * await openPGliteKeyStore({ dataDir: '.data', minUseIntervalMs: 300_000 });
 * ```
 */
export type OpenKeyStoreOptions = Omit<PostgresKeyStoreOptions, 'db' | 'closeDatabase'>;

async function storeOver(db: Queryable, options: OpenKeyStoreOptions): Promise<PostgresKeyStore> {
  try {
    await migrateKeyStore(db);
    return new PostgresKeyStore({ ...options, db, closeDatabase: true });
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}

function storeOptionsOf(options: OpenKeyStoreOptions): OpenKeyStoreOptions {
  checkStoreSettings(options);
  const { minUseIntervalMs, flushIntervalMs, onError } = options;
  const { cache, leaseMs, leaseMarginMs, monotonicNow, onRevocationWait } = options;
  return {
    ...(minUseIntervalMs !== undefined ? { minUseIntervalMs } : {}),
    ...(flushIntervalMs !== undefined ? { flushIntervalMs } : {}),
    ...(onError !== undefined ? { onError } : {}),
    ...{ cache, leaseMs, leaseMarginMs, monotonicNow, onRevocationWait },
  };
}

/**
 * Opens a PostgreSQL server, migrates the key table and returns a {@link PostgresKeyStore} that
 * owns the pool (`close()` ends it). Several instances may call it at once on one database.
 *
 * @example
 * ```ts
 * const keyStore = await openPostgresKeyStore({ connectionString: process.env.DATABASE_URL! });
 * ```
 */
export async function openPostgresKeyStore(options: OpenPostgresOptions & OpenKeyStoreOptions): Promise<PostgresKeyStore> {
  const storeOptions = storeOptionsOf(options);
  return storeOver(await openPostgres(options), storeOptions);
}

/**
 * Opens embedded PostgreSQL (PGlite) in `dataDir` (or `':memory:'`), migrates the key table and
 * returns a {@link PostgresKeyStore} that owns it (`close()` closes it). The zero-setup default
 * for one process.
 *
 * @example
 * ```ts
 * const keyStore = await openPGliteKeyStore({ dataDir: '.data' });
 * ```
 */
export async function openPGliteKeyStore(options: OpenPGliteOptions & OpenKeyStoreOptions): Promise<PostgresKeyStore> {
  const storeOptions = storeOptionsOf(options);
  return storeOver(await openPGlite(options), storeOptions);
}
