import type { Migration } from './migration.js';
import { migrate, type MigrateResult } from './migrate.js';
import type { Queryable } from './queryable.js';

/**
 * The migration set name of the key table in `drops_schema_migrations`.
 *
 * @example
 * ```ts
 * await migrate(db, { namespace: KEY_STORE_NAMESPACE, migrations: keyStoreMigrations }); // = migrateKeyStore(db)
 * ```
 */
export const KEY_STORE_NAMESPACE = 'drops_auth_keys';

/**
 * The table {@link PostgresKeyStore} keeps keys in.
 *
 * @example
 * ```ts
 * await db.query(`select count(*) from ${KEYS_TABLE} where revoked_at is null`);
 * ```
 */
export const KEYS_TABLE = 'drops_auth_keys';

/**
 * The history of the key table. Revoked rows stay (audit) with `revoked_at` set.
 *
 * - `id`: lowercase hex SHA-256 of the secret, the primary key: `findActive` is one index lookup,
 *   the same for unknown and revoked ids.
 * - `minted_by_*`: the login that minted the key (the ID token's `sub`, sign-in provider,
 *   `auth_time`).
 * - A partial index serves listing an account's active keys newest first.
 *
 * @example
 * ```ts
 * // Apply them with your own tooling instead of migrate(), in version order:
 * for (const m of keyStoreMigrations) console.log(m.version, m.name, m.sql);
 * ```
 */
export const keyStoreMigrations: readonly Migration[] = Object.freeze([
  {
    version: 1,
    name: 'create drops_auth_keys',
    sql: `
      create table ${KEYS_TABLE} (
        id text primary key check (id ~ '^[0-9a-f]{64}$'),
        account_id text not null,
        prefix text not null,
        name text,
        created_at timestamptz not null,
        last_used_at timestamptz,
        revoked_at timestamptz,
        minted_by_subject text,
        minted_by_sign_in_provider text,
        minted_by_auth_time timestamptz
      );
      create index ${KEYS_TABLE}_active_by_account
        on ${KEYS_TABLE} (account_id, created_at desc, id desc)
        where revoked_at is null;
    `,
  },
  {
    version: 2,
    name: 'look up active keys by id in a partial index',
    // findActive reads only this index: a revoked key is absent from it exactly like an unknown
    // one, so the two take the same work (no heap visit for either) and the same time. With the
    // primary key alone, a revoked id found its row and fetched it from the heap: a few
    // microseconds more, measurable (bench/timing.bench.mjs), an oracle that a key once existed.
    sql: `
      create unique index ${KEYS_TABLE}_active_by_id
        on ${KEYS_TABLE} (id) include (account_id)
        where revoked_at is null;
    `,
  },
]);

/**
 * Creates or updates the key table: {@link migrate} with {@link keyStoreMigrations}. Run it once at
 * start-up, before the first request; safe when several instances start at once.
 *
 * @example
 * ```ts
 * const db = fromPgPool(pool);
 * await migrateKeyStore(db);
 * const store = new PostgresKeyStore({ db });
 * ```
 */
export function migrateKeyStore(db: Queryable): Promise<MigrateResult> {
  return migrate(db, { namespace: KEY_STORE_NAMESPACE, migrations: keyStoreMigrations });
}
