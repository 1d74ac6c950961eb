import { LastUsedBatcher, type ActiveKey, type KeyRecord, type KeyStore, type NewKeyRecord } from '@drops/auth';
import { KEYS_TABLE } from './key-store-migrations.js';
import type { Queryable } from './queryable.js';
import { isUniqueViolation, unavailable } from './store-error.js';
import { z } from 'zod';
import { parseOptions } from './parse-options.js';
import { activeKeyCacheOf, type ActiveKeyCache } from './active-key-cache.js';

/**
 * Options of {@link PostgresKeyStore}.
 *
 * @example
 * ```ts
 * const options: PostgresKeyStoreOptions = { db, flushIntervalMs: 10_000, onError: (err) => log.warn({ err }) };
 * ```
 */
export interface PostgresKeyStoreOptions {
  /** The database, from {@link fromPgPool} or {@link fromPGlite}, already migrated ({@link migrateKeyStore}). */
  readonly db: Queryable;
  /** Least time between two recorded uses of one key in this process, in ms. Default 60 000. */
  readonly minUseIntervalMs?: number;
  /** How often recorded uses are written, in ms. Default 5 000. */
  readonly flushIntervalMs?: number;
  /** Called when writing recorded uses fails (they are kept and retried). Default: ignore. */
  readonly onError?: (error: unknown) => void;
  /** Whether {@link PostgresKeyStore.close} also closes `db`. Default `false`. */
  readonly closeDatabase?: boolean;
  /**
   * On an in-process database (PGlite), how many active keys to keep in memory once found, so a
   * key that authenticated once costs no query; every revoke through any store of this process
   * drops its key first. Ignored on PostgreSQL, where other processes revoke too: there every
   * lookup is a query. Default 10 000; 0 turns it off.
   */
  readonly maxCachedKeys?: number;
  /**
   * How long a query may wait for the database's answer, in ms, before it fails as unavailable
   * (a 503): a database that accepts connections but stops answering never hangs a request.
   * Default 5 000. PGlite, in process, ignores it.
   */
  readonly queryTimeoutMs?: number;
}

const SQL = {
  create: `insert into ${KEYS_TABLE}
    (id, account_id, prefix, name, created_at, minted_by_subject, minted_by_sign_in_provider, minted_by_auth_time)
    values ($1, $2, $3, $4, $5, $6, $7, $8)`,
  // The hot path: one lookup in the partial index of active keys (migration 2), which holds
  // account_id: revoked and unknown ids take this same query and the same work.
  findActive: `select account_id from ${KEYS_TABLE} where id = $1 and revoked_at is null`,
  list: `select id, prefix, name, created_at, last_used_at from ${KEYS_TABLE}
    where account_id = $1 and revoked_at is null order by created_at desc, id desc`,
  revoke: `update ${KEYS_TABLE} set revoked_at = $3
    where id = $2 and account_id = $1 and revoked_at is null returning id`,
  // Forward-only: a use older than the one stored changes nothing.
  recordUses: `update ${KEYS_TABLE} as k set last_used_at = v.at
    from (select unnest($1::text[]) as id, unnest($2::timestamptz[]) as at) as v
    where k.id = v.id and (k.last_used_at is null or k.last_used_at < v.at)`,
} as const;

const settingsShape = {
  minUseIntervalMs: z.number().int().nonnegative().optional(),
  flushIntervalMs: z.number().int().positive().optional(),
  onError: z.custom<(error: unknown) => void>((v) => typeof v === 'function', 'must be a function').optional(),
  closeDatabase: z.boolean().optional(),
  maxCachedKeys: z.number().int().nonnegative().optional(),
  queryTimeoutMs: z.number().int().positive().optional(),
};

const optionsSchema = z.object(
  {
    ...settingsShape,
    db: z.custom<Queryable>(
      (v) =>
        typeof v === 'object' &&
        v !== null &&
        typeof (v as Queryable).query === 'function' &&
        typeof (v as Queryable).close === 'function',
      'must be a Queryable (see fromPgPool and fromPGlite)',
    ),
  },
  { error: 'options are required' },
);

/** Checks every option but `db`; the `open…KeyStore` factories call it before opening a database. */
export function checkStoreSettings(options: Omit<PostgresKeyStoreOptions, 'db'>): void {
  parseOptions('PostgresKeyStore', z.object(settingsShape, { error: 'options are required' }), options);
}

/**
 * The {@link KeyStore} on PostgreSQL, through `pg` or embedded PGlite.
 *
 * - `findActive` is one index lookup (`SELECT` by id among active keys). On PostgreSQL there is
 *   no cache: a revoke committed by any instance on the same database is seen by the very next
 *   lookup. On PGlite, which only this process can change, keys found once answer from memory
 *   until a revoke through any store of this process drops them (`maxCachedKeys`).
 * - `recordUse` never touches the database on the request path: uses are throttled (once a minute
 *   per key by default), batched into one `UPDATE` every 5 s, forward-only, and flushed on `close()`.
 * - A database failure rejects with `UnavailableError('key_store')` (a 503), never `null`. The
 *   store recovers by itself when the database answers again.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { fromPgPool, migrateKeyStore, PostgresKeyStore } from '@drops/auth-postgres';
 *
 * const db = fromPgPool(new pg.Pool({ connectionString: process.env.DATABASE_URL }));
 * await migrateKeyStore(db);
 * const store = new PostgresKeyStore({ db, closeDatabase: true });
 * await store.findActive(keyId); // { id, accountId } or null
 * await store.close();
 * ```
 */
export class PostgresKeyStore implements KeyStore {
  readonly #db: Queryable;
  readonly #uses: LastUsedBatcher;
  readonly #closeDatabase: boolean;
  /** Only on an in-process database (PGlite): see `maxCachedKeys`. */
  readonly #cache: ActiveKeyCache | null;
  readonly #timeoutMs: number;
  #closed: Promise<void> | undefined;

  constructor(options: PostgresKeyStoreOptions) {
    parseOptions('PostgresKeyStore', optionsSchema, options);
    this.#db = options.db;
    this.#closeDatabase = options.closeDatabase ?? false;
    this.#timeoutMs = options.queryTimeoutMs ?? 5_000;
    const maxCachedKeys = options.maxCachedKeys ?? 10_000;
    this.#cache =
      options.db.inProcess !== undefined && maxCachedKeys > 0
        ? activeKeyCacheOf(options.db.inProcess.engine, maxCachedKeys)
        : null;
    this.#uses = new LastUsedBatcher({
      flush: (entries) => this.#writeUses(entries),
      minIntervalMs: options.minUseIntervalMs ?? 60_000,
      flushIntervalMs: options.flushIntervalMs ?? 5_000,
      ...(options.onError ? { onError: options.onError } : {}),
    });
  }

  /** Stores a new active key. Rejects with a plain `Error` if the id exists, `UnavailableError` if the database fails. */
  async create(key: NewKeyRecord): Promise<void> {
    const p = key.provenance;
    try {
      await this.#db.query(
        SQL.create,
        [key.id, key.accountId, key.prefix, key.name, key.createdAt, p?.subject ?? null, p?.signInProvider ?? null, p?.authTime ?? null],
        { name: 'drops_auth_keys_create', timeoutMs: this.#timeoutMs },
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw new Error('a key with this id already exists', { cause: error });
      throw unavailable(error);
    }
  }

  /**
   * The active key with this id, or `null` if it is unknown or revoked: one index lookup, the same
   * work for both. On PGlite a key found before answers from memory (see `maxCachedKeys`).
   */
  findActive(id: string): Promise<ActiveKey | null> | ActiveKey {
    const cache = this.#cache;
    if (cache !== null && this.#db.inProcess?.isOpen() === true) {
      const hit = cache.get(id);
      if (hit !== undefined) return hit;
    }
    return this.#lookUp(id, cache?.generation ?? 0);
  }

  async #lookUp(id: string, generation: number): Promise<ActiveKey | null> {
    let rows: { account_id: string }[];
    try {
      ({ rows } = await this.#db.query<{ account_id: string }>(SQL.findActive, [id], { name: 'drops_auth_keys_find_active', timeoutMs: this.#timeoutMs }));
    } catch (error) {
      this.#cache?.clear();
      throw unavailable(error);
    }
    const row = rows[0];
    if (row === undefined) return null;
    const key: ActiveKey = Object.freeze({ id, accountId: row.account_id });
    this.#cache?.remember(key, generation);
    return key;
  }

  /** The account's active keys, newest first. */
  async listByAccount(accountId: string): Promise<KeyRecord[]> {
    try {
      const { rows } = await this.#db.query<{
        id: string;
        prefix: string;
        name: string | null;
        created_at: Date;
        last_used_at: Date | null;
      }>(SQL.list, [accountId], { name: 'drops_auth_keys_list', timeoutMs: this.#timeoutMs });
      return rows.map((r) => ({
        id: r.id,
        prefix: r.prefix,
        name: r.name,
        createdAt: new Date(r.created_at),
        lastUsedAt: r.last_used_at === null ? null : new Date(r.last_used_at),
      }));
    } catch (error) {
      throw unavailable(error);
    }
  }

  /** Revokes the account's active key: `true` if this call revoked it. Committed before it resolves. */
  async revoke(accountId: string, id: string, at: Date): Promise<boolean> {
    // Dropped before the update (no lookup from now on answers from memory) and again after it
    // (a lookup that read the row before the commit does not put it back: the generation moved).
    this.#cache?.drop(id);
    try {
      const { rows } = await this.#db.query(SQL.revoke, [accountId, id, at], { name: 'drops_auth_keys_revoke', timeoutMs: this.#timeoutMs });
      return rows.length === 1;
    } catch (error) {
      throw unavailable(error);
    } finally {
      this.#cache?.drop(id);
    }
  }

  /** Notes a use of the key, to be written later. Synchronous, never throws, never waits. */
  recordUse(id: string, at: Date): void {
    this.#uses.record(id, at);
  }

  /** Writes the uses recorded so far now, instead of at the next interval. */
  flushUses(): Promise<void> {
    return this.#uses.flush();
  }

  /** Writes pending uses, then stops; closes the database too when `closeDatabase` was set. Idempotent. */
  close(): Promise<void> {
    this.#closed ??= (async (): Promise<void> => {
      this.#cache?.clear();
      await this.#uses.close();
      if (this.#closeDatabase) await this.#db.close();
    })();
    return this.#closed;
  }

  async #writeUses(entries: ReadonlyMap<string, Date>): Promise<void> {
    const ids: string[] = [];
    const times: string[] = [];
    for (const [id, at] of entries) {
      ids.push(id);
      times.push(at.toISOString());
    }
    await this.#db.query(SQL.recordUses, [ids, times], { name: 'drops_auth_keys_record_uses', timeoutMs: this.#timeoutMs });
  }
}
