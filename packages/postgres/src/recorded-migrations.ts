import type { SqlExecutor } from './queryable.js';

/**
 * The table that records applied migrations, for every namespace: `(namespace, version, name,
 * applied_at)`.
 *
 * @example
 * ```ts
 * await db.query(`select version from ${MIGRATIONS_TABLE} where namespace = $1`, ['drops_server']);
 * ```
 */
export const MIGRATIONS_TABLE = 'drops_schema_migrations';

/**
 * The versions of a migration set recorded in `drops_schema_migrations`, with the name each was
 * applied as; empty when the table does not exist. Reads only: no DDL, no lock, so a runtime role
 * with no CREATE right can ask.
 * @internal
 */
export async function recordedMigrations(db: SqlExecutor, namespace: string): Promise<Map<number, string>> {
  const { rows: present } = await db.query<{ present: boolean }>(`select to_regclass($1) is not null as present`, [MIGRATIONS_TABLE]);
  if (present[0]?.present !== true) return new Map();
  const { rows } = await db.query<{ version: number; name: string }>(`select version, name from ${MIGRATIONS_TABLE} where namespace = $1`, [
    namespace,
  ]);
  return new Map(rows.map((r) => [Number(r.version), r.name]));
}
