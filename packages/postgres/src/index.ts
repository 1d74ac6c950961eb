export type { Queryable, SqlExecutor, QueryResult, QueryOptions } from './queryable.js';
export type { DedicatedSession } from './dedicated-session.js';
export type { RevocationWait } from './lease/wait-for-acknowledgements.js';
export { fromPgPool, type PgQueryConfig, type PgPoolLike, type PgClientLike, type FromPgPoolOptions } from './from-pg-pool.js';
export { fromPGlite, type PGliteLike, type PGliteTransactionLike } from './from-pglite.js';
export type { Migration } from './migration.js';
export { migrate, MIGRATIONS_TABLE, type MigrateOptions, type MigrateResult } from './migrate.js';
export { migrationStatus, type MigrationStatus } from './migration-status.js';
export { migrationsAsSql } from './migrations-as-sql.js';
export { grantKeyStoreSql } from './grant-key-store.js';
export {
  keyStoreMigrations,
  migrateKeyStore,
  KEY_STORE_NAMESPACE,
  KEYS_TABLE,
  KEY_EVENTS_TABLE,
  REVOKE_KEY_FUNCTION,
  REVOCATION_PENDING_FUNCTION,
} from './key-store-migrations.js';
export { PostgresKeyStore, type PostgresKeyStoreOptions } from './postgres-key-store.js';
export { NotificationsUnheardError } from './notifications-unheard-error.js';
export { PostgresRateLimitStore, type PostgresRateLimitStoreOptions } from './postgres-rate-limit-store.js';
export { openPostgres, type OpenPostgresOptions } from './open-postgres.js';
export { openPGlite, type OpenPGliteOptions } from './open-pglite.js';
export { openPostgresKeyStore, openPGliteKeyStore, type OpenKeyStoreOptions } from './open-key-store.js';
export * from './webhooks/index.js';
