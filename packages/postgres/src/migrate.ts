import type { Migration } from './migration.js';
import type { Queryable, SqlExecutor } from './queryable.js';
import { z } from 'zod';
import { parseOptions } from './parse-options.js';
import { MIGRATIONS_TABLE, recordedMigrations } from './recorded-migrations.js';

/**
 * Options of {@link migrate}.
 *
 * @example
 * ```ts
 * const options: MigrateOptions = { namespace: 'drops_server', migrations };
 * ```
 */
export interface MigrateOptions {
  /**
   * The name of the migration set, e.g. `drops_auth_keys` or `drops_server`. Several sets live in
   * one database, each with its own versions.
   */
  readonly namespace: string;
  /** The whole history of the set, in any order. */
  readonly migrations: readonly Migration[];
}

/** What {@link migrate} did. */
export interface MigrateResult {
  /** Versions this call applied, in order; empty when the database was already up to date. */
  readonly applied: number[];
}

export { MIGRATIONS_TABLE };

// One advisory lock for every namespace: migrations are rare, and the bookkeeping table itself
// must be created under a lock. The value is arbitrary ("drops" + a version tag).
/** @internal */
export const MIGRATION_LOCK_KEY = '7308253061240131';

/** The bookkeeping table, created when missing. @internal */
export const MIGRATIONS_TABLE_DDL = `create table if not exists ${MIGRATIONS_TABLE} (
    namespace text not null,
    version integer not null,
    name text not null,
    applied_at timestamptz not null default now(),
    primary key (namespace, version)
  )`;

const NAMESPACE_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;

const migrationSchema = z.object({
  version: z.number().int().positive(),
  name: z.string().min(1),
  sql: z.string().refine((sql) => sql.trim().length > 0, 'must not be empty'),
});

const optionsSchema = z.object(
  {
    namespace: z.string().regex(NAMESPACE_PATTERN, 'must be lowercase letters, digits and _ (at most 63), starting with a letter'),
    migrations: z.array(migrationSchema).superRefine((migrations, ctx) => {
      const seen = new Set<number>();
      for (const m of migrations) {
        if (seen.has(m.version)) ctx.addIssue({ code: 'custom', message: `version ${m.version} appears twice` });
        seen.add(m.version);
      }
    }),
  },
  { error: 'options are required' },
);

function checkOptions(options: MigrateOptions): Migration[] {
  const { migrations } = parseOptions('migrate', optionsSchema, options);
  return [...migrations].sort((a, b) => a.version - b.version);
}

/** The migrations not recorded yet; a recorded one under another name is an error (it was edited). */
function pendingOf(namespace: string, migrations: Migration[], done: ReadonlyMap<number, string>): Migration[] {
  return migrations.filter((m) => {
    const doneName = done.get(m.version);
    if (doneName !== undefined && doneName !== m.name) {
      throw new Error(
        `migrate: ${namespace} version ${m.version} was applied as "${doneName}" but is now named "${m.name}"; add a new migration instead of editing one`,
      );
    }
    return doneName === undefined;
  });
}

async function applyPending(tx: SqlExecutor, namespace: string, migrations: Migration[]): Promise<number[]> {
  // Held until commit: a second instance starting at the same time waits here, then sees the
  // versions this one recorded and applies nothing.
  await tx.query(`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY}::bigint)`);
  await tx.exec(MIGRATIONS_TABLE_DDL);
  const applied: number[] = [];
  for (const m of pendingOf(namespace, migrations, await recordedMigrations(tx, namespace))) {
    await tx.exec(m.sql);
    await tx.query(`insert into ${MIGRATIONS_TABLE} (namespace, version, name) values ($1, $2, $3)`, [namespace, m.version, m.name]);
    applied.push(m.version);
  }
  return applied;
}

/**
 * Brings a migration set up to date: applies, in one transaction and in version order, every
 * migration not yet recorded for `namespace` in `drops_schema_migrations`. Idempotent, and safe
 * when several instances start at once: a transaction-scoped advisory lock makes them take turns,
 * so each migration runs exactly once. If one migration fails, none of this call's are kept. A
 * database already up to date is only read (no DDL, no lock), so a runtime role without CREATE
 * (`drops-auth-postgres grant`) may call it.
 *
 * Migrations run inside a transaction, so statements that refuse one (`create index
 * concurrently`, `vacuum`) do not belong in them.
 *
 * @example
 * ```ts
 * await migrate(db, {
 *   namespace: 'drops_server',
 *   migrations: [
 *     { version: 1, name: 'drops', sql: 'create table drops (slug text primary key, owner text)' },
 *     { version: 2, name: 'drops expiry', sql: 'alter table drops add column expires_at timestamptz' },
 *   ],
 * }); // { applied: [1, 2] } the first time, { applied: [] } after
 * ```
 */
export async function migrate(db: Queryable, options: MigrateOptions): Promise<MigrateResult> {
  const migrations = checkOptions(options);
  if (db === null || typeof db !== 'object' || typeof db.transaction !== 'function') {
    throw new TypeError('migrate: db must be a Queryable (see fromPgPool and fromPGlite)');
  }
  if (pendingOf(options.namespace, migrations, await recordedMigrations(db, options.namespace)).length === 0) return { applied: [] };
  const applied = await db.transaction((tx) => applyPending(tx, options.namespace, migrations));
  return { applied };
}
