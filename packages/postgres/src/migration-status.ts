import type { MigrateOptions } from './migrate.js';
import type { Queryable } from './queryable.js';
import { recordedMigrations } from './recorded-migrations.js';

/**
 * Where a migration set stands in a database: the versions recorded in `drops_schema_migrations`
 * and those still to apply.
 *
 * @example
 * ```ts
 * const { pending } = await keyStoreMigrationStatus(db);
 * if (pending.length > 0) console.log(`run drops-auth-postgres migrate (${pending.join(', ')} pending)`);
 * ```
 */
export interface MigrationStatus {
  /** Versions recorded as applied, in order. */
  readonly applied: number[];
  /** Versions of the set not applied yet, in order. */
  readonly pending: number[];
}

/**
 * Reads which migrations of a set are applied, without changing anything (no DDL, no lock): what
 * `drops-auth-postgres status` prints and `openPostgresKeyStore({ migrate: false })` checks. A
 * database without the bookkeeping table has every migration pending.
 *
 * @example
 * ```ts
 * await migrationStatus(db, { namespace: KEY_STORE_NAMESPACE, migrations: keyStoreMigrations });
 * // { applied: [1, 2, 3, 4, 5], pending: [] }
 * ```
 */
export async function migrationStatus(db: Queryable, options: MigrateOptions): Promise<MigrationStatus> {
  const recorded = await recordedMigrations(db, options.namespace);
  const versions = options.migrations.map((m) => m.version).sort((a, b) => a - b);
  return { applied: [...recorded.keys()].sort((a, b) => a - b), pending: versions.filter((v) => !recorded.has(v)) };
}
