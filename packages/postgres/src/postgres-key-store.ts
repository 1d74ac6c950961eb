import type { ActiveKey, KeyRecord, KeyStore, NewKeyRecord } from '@drops/auth';
import { LastUsedBatcher } from '@drops/auth/internal';
import { KEYS_TABLE } from './key-store-migrations.js';
import type { Queryable } from './queryable.js';
import { isUniqueViolation, unavailable } from './store-error.js';
import { z } from 'zod';
import { parseOptions } from './parse-options.js';
import { activeKeyCacheOf, type ActiveKeyCache } from './active-key-cache.js';
import { randomUUID } from 'node:crypto';
import { CoherentKeyCache } from './coherent-key-cache.js';
import { REVOKE_KEY_FUNCTION } from './key-store-migrations.js';
import { renewalIntervalMs } from './lease.js';
import { RevocationListener } from './revocation-listener.js';
import { waitForAcknowledgements, type RevocationWait } from './wait-for-acknowledgements.js';

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
   * How many active keys to keep in memory once found, so a key that authenticated once costs no
   * query. On an in-process database (PGlite) every revoke through any store of this process drops
   * its key first; on PostgreSQL the keys are kept under a lease (see `cache`). Default 10 000; 0
   * turns caching off on either.
   */
  readonly maxCachedKeys?: number;
  /**
   * How long a query may wait for the database's answer, in ms, before it fails as unavailable
   * (a 503): a database that accepts connections but stops answering never hangs a request.
   * Default 5 000. PGlite, in process, ignores it.
   */
  readonly queryTimeoutMs?: number;
  /**
   * On PostgreSQL, keep active keys in memory under a lease (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md): a key that
   * authenticated once costs no query, and a revoke on any instance returns only once no instance
   * accepts the key. `false`: every lookup is a query (revoke still announces and waits, for the
   * instances that do cache). Needs a `db` with `openSession` ({@link fromPgPool}); it takes one
   * connection of the pool. Default `true`. PGlite ignores it (see `maxCachedKeys`).
   */
  readonly cache?: boolean;
  /** Lease length, in ms: the longest a partitioned instance delays a revoke. Default 6 000. */
  readonly leaseMs?: number;
  /**
   * Margin for clock-rate error, taken off the local lease deadline, in ms: covers clocks whose
   * rates differ by up to `leaseMarginMs / leaseMs`. Default 1 000 (a sixth of a lease under 6 s).
   */
  readonly leaseMarginMs?: number;
  /** Monotonic clock in ms for lease deadlines. Default `performance.now`. For tests. */
  readonly monotonicNow?: () => number;
  /** Called after each revoke's wait for acknowledgements (for metrics). Default: nothing. */
  readonly onRevocationWait?: (wait: RevocationWait) => void;
}

/**
 * First half of the two-int advisory lock key that serialises one account's mints (the second is
 * a hash of the account id). The two-int key space is apart from `migrate()`'s bigint lock.
 */
const ACCOUNT_KEYS_LOCK_CLASS = 0x6b657973; // 'keys'

const SQL = {
  create: `insert into ${KEYS_TABLE}
    (id, account_id, prefix, name, created_at, minted_by_subject, minted_by_sign_in_provider, minted_by_auth_time)
    values ($1, $2, $3, $4, $5, $6, $7, $8)`,
  // Mints of one account take turns on this lock (transaction-scoped), so the count below, read
  // by a statement that starts once the lock is held, sees every earlier mint committed.
  lockAccountKeys: `select pg_advisory_xact_lock(${ACCOUNT_KEYS_LOCK_CLASS}, hashtext($1))`,
  // Insert only below the limit: the count reads the partial index of active keys by account.
  createWithinLimit: `insert into ${KEYS_TABLE}
    (id, account_id, prefix, name, created_at, minted_by_subject, minted_by_sign_in_provider, minted_by_auth_time)
    select $1::text, $2::text, $3::text, $4::text, $5::timestamptz, $6::text, $7::text, $8::timestamptz
    where (select count(*) from ${KEYS_TABLE} where account_id = $2::text and revoked_at is null) < $9::int
    returning id`,
  // The hot path: one lookup in the partial index of active keys (migration 2), which holds
  // account_id: revoked and unknown ids take this same query and the same work.
  findActive: `select account_id from ${KEYS_TABLE} where id = $1 and revoked_at is null`,
  list: `select id, prefix, name, created_at, last_used_at from ${KEYS_TABLE}
    where account_id = $1 and revoked_at is null order by created_at desc, id desc`,
  // Every revocation takes this path: revoked_at, a new revision and its NOTIFY, one transaction.
  revoke: `select revoked, revision from ${REVOKE_KEY_FUNCTION}($2, $1, $3)`,
  // Forward-only: a use older than the one stored changes nothing.
  recordUses: `update ${KEYS_TABLE} as k set last_used_at = v.at
    from (select unnest($1::text[]) as id, unnest($2::timestamptz[]) as at) as v
    where k.id = v.id and (k.last_used_at is null or k.last_used_at < v.at)`,
} as const;

/** Every option but `db`, for the `open…KeyStore` factories. @internal */
export const storeSettingsShape = {
  minUseIntervalMs: z.number().int().nonnegative().optional(),
  flushIntervalMs: z.number().int().positive().optional(),
  onError: z.custom<(error: unknown) => void>((v) => typeof v === 'function', 'must be a function').optional(),
  closeDatabase: z.boolean().optional(),
  maxCachedKeys: z.number().int().nonnegative().optional(),
  queryTimeoutMs: z.number().int().positive().optional(),
  cache: z.boolean().optional(),
  leaseMs: z.number().int().min(30).max(600_000).optional(),
  leaseMarginMs: z.number().int().nonnegative().optional(),
  monotonicNow: z.custom<() => number>((v) => typeof v === 'function', 'must be a function').optional(),
  onRevocationWait: z.custom<(wait: RevocationWait) => void>((v) => typeof v === 'function', 'must be a function').optional(),
};

function checkLease(options: { leaseMs?: number; leaseMarginMs?: number }): void {
  const leaseMs = options.leaseMs ?? 6_000;
  const margin = options.leaseMarginMs ?? Math.min(1_000, Math.floor(leaseMs / 6));
  // The deadline must outlast a renewal interval (lease/3), or the cache lapses between renewals.
  if (margin >= (leaseMs * 2) / 3) throw new TypeError('PostgresKeyStore: leaseMarginMs must be less than two thirds of leaseMs');
}

const optionsSchema = z.strictObject(
  {
    ...storeSettingsShape,
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
  parseOptions('PostgresKeyStore', z.strictObject(storeSettingsShape, { error: 'options are required' }), options);
  checkLease(options);
}

/**
 * The {@link KeyStore} on PostgreSQL, through `pg` or embedded PGlite.
 *
 * - `findActive` is one index lookup (`SELECT` by id among active keys). On PostgreSQL, keys
 *   found once answer from memory under a lease, and `revoke` on any instance resolves only when
 *   no instance accepts the key any more (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md; `cache: false` turns it off). On
 *   PGlite, which only this process can change, keys found once answer from memory until a revoke
 *   through any store of this process drops them (`maxCachedKeys`).
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
  /** Only on PostgreSQL with `cache` on: see https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md. */
  readonly #coherent: CoherentKeyCache | null = null;
  readonly #listener: RevocationListener | null = null;
  readonly #acknowledgements = new Set<() => void>();
  readonly #monotonicNow: () => number;
  readonly #maxPollMs: number;
  readonly #onRevocationWait: ((wait: RevocationWait) => void) | undefined;
  #closed: Promise<void> | undefined;

  constructor(options: PostgresKeyStoreOptions) {
    parseOptions('PostgresKeyStore', optionsSchema, options);
    checkLease(options);
    this.#db = options.db;
    this.#closeDatabase = options.closeDatabase ?? false;
    this.#timeoutMs = options.queryTimeoutMs ?? 5_000;
    const maxCachedKeys = options.maxCachedKeys ?? 10_000;
    this.#cache =
      options.db.inProcess !== undefined && maxCachedKeys > 0
        ? activeKeyCacheOf(options.db.inProcess.engine, maxCachedKeys)
        : null;
    this.#monotonicNow = options.monotonicNow ?? ((): number => performance.now());
    this.#onRevocationWait = options.onRevocationWait;
    const leaseMs = options.leaseMs ?? 6_000;
    const timing = { leaseMs, marginMs: options.leaseMarginMs ?? Math.min(1_000, Math.floor(leaseMs / 6)) };
    this.#maxPollMs = Math.min(250, renewalIntervalMs(timing));
    const openSession = options.db.openSession;
    if (this.#cache === null && options.cache !== false && openSession !== undefined && maxCachedKeys > 0) {
      this.#coherent = new CoherentKeyCache(maxCachedKeys, this.#monotonicNow);
      this.#listener = new RevocationListener({
        ...timing,
        openSession,
        cache: this.#coherent,
        instanceId: randomUUID(),
        monotonicNow: this.#monotonicNow,
        onAcknowledgement: () => {
          const waiting = [...this.#acknowledgements];
          this.#acknowledgements.clear();
          for (const wake of waiting) wake();
        },
        onError: options.onError ?? ((): void => {}),
      });
    }
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
   * Creates the key unless its account already holds `maxActive` active keys; resolves whether it
   * did. Mints of one account take turns on a transaction-scoped advisory lock, so two instances
   * minting at once at `maxActive - 1` store one key, not two.
   */
  async createWithinLimit(key: NewKeyRecord, maxActive: number): Promise<boolean> {
    const p = key.provenance;
    const params = [key.id, key.accountId, key.prefix, key.name, key.createdAt, p?.subject ?? null, p?.signInProvider ?? null, p?.authTime ?? null, maxActive];
    try {
      return await this.#db.transaction(async (tx) => {
        await tx.query(SQL.lockAccountKeys, [key.accountId], { timeoutMs: this.#timeoutMs });
        const { rows } = await tx.query(SQL.createWithinLimit, params, { name: 'drops_auth_keys_create_within_limit', timeoutMs: this.#timeoutMs });
        return rows.length === 1;
      });
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
    const coherent = this.#coherent;
    if (coherent !== null) {
      const hit = coherent.get(id);
      if (hit !== undefined) return hit;
      return this.#lookUp(id, coherent.generation);
    }
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
    // Kept only if no revocation, lapse or new lease happened since the query was sent.
    this.#coherent?.remember(key, generation);
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

  /**
   * Revokes the account's active key: `true` if this call revoked it, `false` if the account has
   * no active key with this id. Resolves only once no instance accepts the key: the revocation is
   * committed and announced, and every instance holding a cache lease has acknowledged it or its
   * lease has expired (at most `leaseMs`; https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md). For a key already revoked, it waits
   * for that earlier revocation the same way before resolving `false`.
   */
  async revoke(accountId: string, id: string, at: Date): Promise<boolean> {
    // Dropped before the update (no lookup from now on answers from memory) and again after it
    // (a lookup that read the row before the commit does not put it back: the generation moved).
    this.#cache?.drop(id);
    this.#coherent?.drop(id);
    let revoked: boolean;
    let revision: number | null;
    try {
      const { rows } = await this.#db.query<{ revoked: boolean; revision: string | null }>(SQL.revoke, [accountId, id, at], {
        name: 'drops_auth_keys_revoke',
        timeoutMs: this.#timeoutMs,
      });
      revoked = rows[0]?.revoked === true;
      revision = rows[0]?.revision == null ? null : Number(rows[0].revision);
    } catch (error) {
      throw unavailable(error);
    } finally {
      this.#cache?.drop(id);
      this.#coherent?.drop(id);
    }
    if (revision !== null) {
      let wait: RevocationWait;
      try {
        wait = await waitForAcknowledgements({
          db: this.#db,
          revision,
          monotonicNow: this.#monotonicNow,
          nextAcknowledgement: () => this.#nextAcknowledgement(),
          maxPollMs: this.#listener === null ? 25 : this.#maxPollMs,
          timeoutMs: this.#timeoutMs,
        });
      } catch (error) {
        throw unavailable(error);
      }
      this.#onRevocationWait?.(wait);
    }
    return revoked;
  }

  #nextAcknowledgement(): Promise<void> {
    if (this.#listener === null) return new Promise(() => {});
    return new Promise((resolve) => this.#acknowledgements.add(resolve));
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
      this.#coherent?.lapse();
      await this.#listener?.close();
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
