import { migrate, migrateKeyStore, openPGlite, openPostgres, type Queryable } from '@drops/auth-postgres';
import { mkdir } from 'node:fs/promises';
import type { DatabaseConfig } from '../config.js';
import { SERVER_NAMESPACE, serverMigrations } from './migrations.js';

/**
 * Opens the configured database (PostgreSQL through `pg`, or embedded PGlite) and brings both
 * migration sets up to date: the key store's and the server's. Safe when several instances start
 * at once on one PostgreSQL.
 */
export async function openDatabase(config: DatabaseConfig): Promise<Queryable> {
  let db: Queryable;
  if (config.kind === 'postgres') {
    db = await openPostgres({ connectionString: config.url, connectionTimeoutMs: 3_000 });
  } else {
    if (config.dataDir !== ':memory:') await mkdir(config.dataDir, { recursive: true });
    db = await openPGlite({ dataDir: config.dataDir });
  }
  try {
    await migrateKeyStore(db);
    await migrate(db, { namespace: SERVER_NAMESPACE, migrations: serverMigrations });
    return db;
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}
