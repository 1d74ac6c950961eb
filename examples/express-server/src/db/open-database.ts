import {
  KEY_STORE_NAMESPACE,
  keyStoreMigrations,
  migrate,
  migrateKeyStore,
  migrationStatus,
  openPGlite,
  openPostgres,
  type Queryable,
} from '@drops/auth-postgres';
import { mkdir } from 'node:fs/promises';
import type { DatabaseConfig } from '../config.js';
import { ENV } from '../settings.js';
import { SERVER_NAMESPACE, serverMigrations } from './migrations.js';

/**
 * Opens the configured database (PostgreSQL through `pg`, or embedded PGlite) and brings both
 * migration sets up to date: the key store's and the server's. Safe when several instances start
 * at once on one PostgreSQL. With `migrate: false` it runs no DDL: the runtime role may
 * hold no CREATE right, and a schema missing or behind is a refusal to start that says what to run.
 */
export async function openDatabase(config: DatabaseConfig): Promise<Queryable> {
  let db: Queryable;
  if (config.kind === 'postgres') {
    db = await openPostgres({
      connectionString: config.url,
      ...(config.listenUrl != null ? { listenConnectionString: config.listenUrl } : {}),
      connectionTimeoutMs: 3_000,
    });
  } else {
    if (config.dataDir !== ':memory:') await mkdir(config.dataDir, { recursive: true });
    db = await openPGlite({ dataDir: config.dataDir });
  }
  try {
    if (config.kind === 'postgres' && !config.migrate) await assertMigrated(db);
    else await migrateDatabase(db);
    return db;
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}

/** Both migration sets, in order: what start-up runs, and `pnpm run migrate` as a deploy step. */
export async function migrateDatabase(db: Queryable): Promise<void> {
  await migrateKeyStore(db);
  await migrate(db, { namespace: SERVER_NAMESPACE, migrations: serverMigrations });
}

async function assertMigrated(db: Queryable): Promise<void> {
  const keys = await migrationStatus(db, { namespace: KEY_STORE_NAMESPACE, migrations: keyStoreMigrations });
  const server = await migrationStatus(db, { namespace: SERVER_NAMESPACE, migrations: serverMigrations });
  if (keys.pending.length === 0 && server.pending.length === 0) return;
  throw new Error(
    `${ENV.databaseMigrate}=off and the database schema is not up to date: run \`drops-auth-postgres migrate\` ` +
      "(the key store) and `pnpm --filter @drops/example-express-server run migrate` (the server's tables, and the key store's) " +
      `against ${ENV.databaseUrl} before starting`,
  );
}
