import { MIGRATIONS_TABLE, type MigrateOptions } from './migrate.js';
import type { Queryable } from './queryable.js';

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
  const { rows: present } = await db.query<{ present: boolean }>(`select to_regclass($1) is not null as present`, [MIGRATIONS_TABLE]);
  const recorded = new Set<number>();
  if (present[0]?.present === true) {
    const { rows } = await db.query<{ version: number }>(`select version from ${MIGRATIONS_TABLE} where namespace = $1`, [
      options.namespace,
    ]);
    for (const row of rows) recorded.add(Number(row.version));
  }
  const versions = options.migrations.map((m) => m.version).sort((a, b) => a - b);
  return { applied: [...recorded].sort((a, b) => a - b), pending: versions.filter((v) => !recorded.has(v)) };
}
