import { z } from 'zod';
import { KEY_STORE_NAMESPACE, keyStoreMigrations, migrateKeyStore } from './key-store-migrations.js';
import { migrationStatus } from './migration-status.js';
import { openPGlite, openPGliteShape, type OpenPGliteOptions } from './open-pglite.js';
import { openPostgres, openPostgresShape, type OpenPostgresOptions } from './open-postgres.js';
import { parseOptions } from './parse-options.js';
import { PostgresKeyStore } from './postgres-key-store.js';
import { checkStoreSettings, storeSettingsShape, type PostgresKeyStoreOptions } from './postgres-key-store-options.js';
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

// The factory owns the database, so it decides `closeDatabase`: passing it is an unknown option.
const { closeDatabase: _ownedByTheFactory, ...keyStoreShape } = storeSettingsShape;

/** One strict schema over the opener's options and the store's: a misspelt option is a TypeError. */
function combinedSchema(openerShape: z.ZodRawShape): z.ZodType {
  return z.strictObject({ ...openerShape, ...keyStoreShape }, { error: 'options are required' });
}

const postgresKeyStoreSchema = combinedSchema({ ...openPostgresShape, migrate: z.boolean().optional() });
const pgliteKeyStoreSchema = combinedSchema(openPGliteShape);

/**
 * Splits checked options into the opener's and the store's. Every store option goes on, by the
 * schema's own list, so an option added to the store cannot be dropped here.
 */
function split<O extends object>(options: O & OpenKeyStoreOptions): { opener: O; store: OpenKeyStoreOptions } {
  const opener: Record<string, unknown> = {};
  const store: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined) continue;
    (Object.hasOwn(keyStoreShape, name) ? store : opener)[name] = value;
  }
  return { opener: opener as O, store: store as OpenKeyStoreOptions };
}

async function storeOver(db: Queryable, options: OpenKeyStoreOptions, migrateFirst = true): Promise<PostgresKeyStore> {
  try {
    if (migrateFirst) await migrateKeyStore(db);
    else await assertMigrated(db);
    return new PostgresKeyStore({ ...options, db, closeDatabase: true });
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}

/** With `migrate: false`: a schema missing or behind is a refusal to start that says what to run. */
async function assertMigrated(db: Queryable): Promise<void> {
  const { pending } = await migrationStatus(db, { namespace: KEY_STORE_NAMESPACE, migrations: keyStoreMigrations });
  if (pending.length > 0) {
    throw new Error(
      `the key store's schema is not up to date (migrations ${pending.join(', ')} pending): run \`drops-auth-postgres migrate\` against this database before starting`,
    );
  }
}

/**
 * Opens a PostgreSQL server, migrates the key table and returns a {@link PostgresKeyStore} that
 * owns the pool (`close()` ends it). Several instances may call it at once on one database.
 * `migrate: false` runs no DDL (the runtime role needs no CREATE right): the schema must have been
 * migrated before (`drops-auth-postgres migrate`, or its `sql` applied by your own tool), and a
 * schema missing or behind is a refusal naming `drops-auth-postgres migrate`.
 *
 * @example
 * ```ts
 * const keyStore = await openPostgresKeyStore({ connectionString: process.env.DATABASE_URL! });
 * // Migrations as a deploy step (`drops-auth-postgres migrate`), none at start-up:
 * const runtime = await openPostgresKeyStore({ connectionString: process.env.DATABASE_URL!, migrate: false });
 * ```
 */
export async function openPostgresKeyStore(
  options: OpenPostgresOptions & OpenKeyStoreOptions & { readonly migrate?: boolean },
): Promise<PostgresKeyStore> {
  parseOptions('openPostgresKeyStore', postgresKeyStoreSchema, options);
  const { migrate: migrateFirst, ...rest } = options;
  const { opener, store } = split<OpenPostgresOptions>(rest);
  checkStoreSettings(store); // the checks across options (lease and margin), before opening anything
  return storeOver(await openPostgres(opener), store, migrateFirst !== false);
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
  parseOptions('openPGliteKeyStore', pgliteKeyStoreSchema, options);
  const { opener, store } = split<OpenPGliteOptions>(options);
  checkStoreSettings(store);
  return storeOver(await openPGlite(opener), store);
}
