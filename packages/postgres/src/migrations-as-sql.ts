import { MIGRATION_LOCK_KEY, MIGRATIONS_TABLE, MIGRATIONS_TABLE_DDL, type MigrateOptions } from './migrate.js';

/**
 * A migration set as one plain SQL script, for a team's own migration tool or psql: the versions
 * from `from` on, each followed by the row that records it in `drops_schema_migrations`, in one
 * transaction under the same advisory lock as {@link migrate}. A database migrated by the script
 * is recognised by `migrate`, `status` and the store (nothing is applied twice). What
 * `drops-auth-postgres sql [--from N]` prints.
 *
 * @example
 * ```ts
 * const script = migrationsAsSql({ namespace: KEY_STORE_NAMESPACE, migrations: keyStoreMigrations }, 5);
 * ```
 */
export function migrationsAsSql(options: MigrateOptions, from = 1): string {
  const chosen = [...options.migrations].filter((m) => m.version >= from).sort((a, b) => a.version - b.version);
  const parts = [
    `-- ${options.namespace}: migrations ${chosen.map((m) => m.version).join(', ') || '(none)'}`,
    'begin;',
    `select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY}::bigint);`,
    `${MIGRATIONS_TABLE_DDL};`,
  ];
  for (const m of chosen) {
    parts.push(`\n-- ${m.version}: ${m.name}`, m.sql.trim().replace(/;?$/, ';'));
    parts.push(
      `insert into ${MIGRATIONS_TABLE} (namespace, version, name) values (${literal(options.namespace)}, ${m.version}, ${literal(m.name)});`,
    );
  }
  parts.push('commit;');
  return `${parts.join('\n')}\n`;
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
