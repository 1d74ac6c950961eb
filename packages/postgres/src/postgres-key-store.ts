import type {
  ActiveKey,
  KeyEvent,
  KeyEventContext,
  KeyEventPage,
  KeyEventSource,
  KeyEventType,
  KeyRecord,
  KeyStore,
  NewKeyRecord,
  NewPendingRevocationRequest,
  PendingRevocationRequest,
  RequestInfo,
  ReportRevocation,
  RevokeManyStatus,
} from '@drops/auth';
import { InvalidRequestError } from '@drops/auth';
import { LastUsedBatcher, parseEventCursor, type LastUseInfo } from '@drops/auth/internal';
import { KEY_EVENTS_TABLE, KEYS_TABLE, PENDING_REVOCATIONS_TABLE } from './key-store-migrations.js';
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
  /**
   * Called after each revoke's wait for acknowledgements (for metrics). Default: nothing. The key
   * manager also publishes the counts, per key revoked, on `drops-auth:revocation`.
   */
  readonly onRevocationWait?: (wait: RevocationWait) => void;
}

/**
 * First half of the two-int advisory lock key that serialises one account's mints (the second is
 * a hash of the account id). The two-int key space is apart from `migrate()`'s bigint lock.
 */
const ACCOUNT_KEYS_LOCK_CLASS = 0x6b657973; // 'keys'

const KEY_COLUMNS = 'id, account_id, prefix, name, created_at, minted_by_subject, minted_by_sign_in_provider, minted_by_auth_time';
const EVENT_COLUMNS = 'account_id, key_id, type, prefix, name, at, source, actor, ip, user_agent, url';

const SQL = {
  // The key and its 'minted' event: one statement, so one transaction.
  create: `with k as (
      insert into ${KEYS_TABLE} (${KEY_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8)
      returning id, account_id, prefix, name, created_at
    )
    insert into ${KEY_EVENTS_TABLE} (${EVENT_COLUMNS})
    select account_id, id, 'minted', prefix, name, created_at, $9::text, $10::text, $11::text, $12::text, $13::text from k`,
  // Mints of one account take turns on this lock (transaction-scoped), so the count below, read
  // by a statement that starts once the lock is held, sees every earlier mint committed.
  lockAccountKeys: `select pg_advisory_xact_lock(${ACCOUNT_KEYS_LOCK_CLASS}, hashtext($1))`,
  // Insert only below the limit (the count reads the partial index of active keys by account),
  // with its 'minted' event when it inserts.
  createWithinLimit: `with k as (
      insert into ${KEYS_TABLE} (${KEY_COLUMNS})
      select $1::text, $2::text, $3::text, $4::text, $5::timestamptz, $6::text, $7::text, $8::timestamptz
      where (select count(*) from ${KEYS_TABLE} where account_id = $2::text and revoked_at is null) < $9::int
      returning id, account_id, prefix, name, created_at
    ), minted as (
      insert into ${KEY_EVENTS_TABLE} (${EVENT_COLUMNS})
      select account_id, id, 'minted', prefix, name, created_at, $10::text, $11::text, $12::text, $13::text, $14::text from k
    )
    select id from k`,
  // The hot path: one lookup in the partial index of active keys (migration 2), which holds
  // account_id: revoked and unknown ids take this same query and the same work.
  findActive: `select account_id from ${KEYS_TABLE} where id = $1 and revoked_at is null`,
  list: `select id, prefix, name, created_at, last_used_at from ${KEYS_TABLE}
    where account_id = $1 and revoked_at is null order by created_at desc, id desc`,
  // Every revocation takes this path: revoked_at, a new revision, its NOTIFY and the 'revoked'
  // event, one transaction.
  revoke: `select revoked, revision from ${REVOKE_KEY_FUNCTION}($2, $1, $3, $4, $5, $6, $7, $8)`,
  // Before a batch of revocations: its keys locked in id order, so the batch never waits for a key
  // while it holds the revision row (every revocation locks its key, then that row): no deadlock
  // with single revocations, other batches or last-use writes (which lock in the same order).
  lockKeys: `select id from ${KEYS_TABLE} where id = any($1::text[]) order by id for update`,
  // One row per id that is a key: revoked now (true) or before (false), and the revision to wait for.
  revokeMany: `select r.id, f.revoked, f.revision
    from unnest($1::text[]) with ordinality as r(id, n)
    cross join lateral ${REVOKE_KEY_FUNCTION}(r.id, null, $2::timestamptz, $3::text, $4::text, $5::text, $6::text, $7::text) f
    order by r.n`,
  // Revocations by value, recorded before the route answers and deleted once carried out (migration 5).
  recordRevocationRequest: `insert into ${PENDING_REVOCATIONS_TABLE} (key_ids, at, source, actor, ip, user_agent, url)
    values ($1::text[], $2::timestamptz, $3::text, $4::text, $5::text, $6::text, $7::text)`,
  pendingRevocationRequests: `select id::text as id, key_ids, at, source, actor, ip, user_agent, url
    from ${PENDING_REVOCATIONS_TABLE} order by ${PENDING_REVOCATIONS_TABLE}.id limit $1`,
  completeRevocationRequest: `delete from ${PENDING_REVOCATIONS_TABLE} where id = $1::bigint`,
  // An account's events, newest first, through the (account_id, seq desc) index; seq below the cursor.
  // Ordered by the column, qualified: a bare `seq` would be the text output column ("9" > "12").
  listEvents: `select seq::text as seq, key_id, type, prefix, name, at, source, actor, ip, user_agent, url
    from ${KEY_EVENTS_TABLE}
    where account_id = $1 and seq < coalesce($2::bigint, 9223372036854775807)
    order by ${KEY_EVENTS_TABLE}.seq desc limit $3`,
  // First uses: with the keys of the batch locked (lockKeys), the rows still without a last use get
  // their 'first_used' event; the same statement writes the times, forward only (a use older than
  // the one stored changes nothing). Both parts read the rows as they were before it.
  recordUses: `with u as (
      select * from unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[]) as u(id, at, ip, user_agent)
    ), first_used as (
      insert into ${KEY_EVENTS_TABLE} (${EVENT_COLUMNS})
      select k.account_id, k.id, 'first_used', k.prefix, k.name, u.at, 'api', k.id, u.ip, u.user_agent, null
      from u join ${KEYS_TABLE} k on k.id = u.id
      where k.last_used_at is null
    )
    update ${KEYS_TABLE} as k set last_used_at = u.at
    from u
    where k.id = u.id and (k.last_used_at is null or k.last_used_at < u.at)`,
} as const;

/** What a store writes when a caller gives no event context: the API, no actor known. */
const UNATTRIBUTED: KeyEventContext = { source: 'api', actor: null, ip: null, userAgent: null, url: null };

function eventParams(event: KeyEventContext): unknown[] {
  return [event.source, event.actor, event.ip, event.userAgent, event.url];
}

interface EventRow {
  seq: string;
  key_id: string;
  type: KeyEventType;
  prefix: string;
  name: string | null;
  at: Date;
  source: KeyEventSource;
  actor: string | null;
  ip: string | null;
  user_agent: string | null;
  url: string | null;
}

interface PendingRevocationRow {
  id: string;
  key_ids: string[];
  at: Date;
  source: KeyEventSource;
  actor: string | null;
  ip: string | null;
  user_agent: string | null;
  url: string | null;
}

function eventOf(row: EventRow): KeyEvent {
  return {
    type: row.type,
    keyId: row.key_id,
    prefix: row.prefix,
    name: row.name,
    at: new Date(row.at),
    source: row.source,
    actor: row.actor,
    ip: row.ip,
    userAgent: row.user_agent,
    url: row.url,
  };
}

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
      flush: (entries, info) => this.#writeUses(entries, info),
      minIntervalMs: options.minUseIntervalMs ?? 60_000,
      flushIntervalMs: options.flushIntervalMs ?? 5_000,
      ...(options.onError ? { onError: options.onError } : {}),
    });
  }

  /**
   * Stores a new active key and its `'minted'` event, in one statement. Rejects with a plain
   * `Error` if the id exists, `UnavailableError` if the database fails.
   */
  async create(key: NewKeyRecord, event?: KeyEventContext): Promise<void> {
    const p = key.provenance;
    const context = event ?? { ...UNATTRIBUTED, actor: p?.subject ?? null };
    try {
      await this.#db.query(
        SQL.create,
        [key.id, key.accountId, key.prefix, key.name, key.createdAt, p?.subject ?? null, p?.signInProvider ?? null, p?.authTime ?? null, ...eventParams(context)],
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
   * minting at once at `maxActive - 1` store one key, not two. The `'minted'` event is written by
   * the same statement.
   */
  async createWithinLimit(key: NewKeyRecord, maxActive: number, event?: KeyEventContext): Promise<boolean> {
    const p = key.provenance;
    const context = event ?? { ...UNATTRIBUTED, actor: p?.subject ?? null };
    const params = [key.id, key.accountId, key.prefix, key.name, key.createdAt, p?.subject ?? null, p?.signInProvider ?? null, p?.authTime ?? null, maxActive, ...eventParams(context)];
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
   * for that earlier revocation the same way before resolving `false`. The `'revoked'` event is
   * written by the revocation function, in its transaction. `report`, when given, gets how many
   * instances acknowledged and how many leases expired, once the wait is over (the core publishes
   * it on `drops-auth:revocation`).
   */
  async revoke(accountId: string, id: string, at: Date, event?: KeyEventContext, report?: ReportRevocation): Promise<boolean> {
    // Dropped before the update (no lookup from now on answers from memory) and again after it
    // (a lookup that read the row before the commit does not put it back: the generation moved).
    this.#cache?.drop(id);
    this.#coherent?.drop(id);
    let revoked: boolean;
    let revision: number | null;
    try {
      const { rows } = await this.#db.query<{ revoked: boolean; revision: string | null }>(
        SQL.revoke,
        [accountId, id, at, ...eventParams(event ?? UNATTRIBUTED)],
        { name: 'drops_auth_keys_revoke', timeoutMs: this.#timeoutMs },
      );
      revoked = rows[0]?.revoked === true;
      revision = rows[0]?.revision == null ? null : Number(rows[0].revision);
    } catch (error) {
      throw unavailable(error);
    } finally {
      this.#cache?.drop(id);
      this.#coherent?.drop(id);
    }
    if (revision !== null) await this.#waitForRevision(revision, report);
    return revoked;
  }

  /**
   * Revokes every active key among `ids`, whatever its account, with one `'revoked'` event each,
   * in one transaction. Resolves, as `revoke` does, once no instance accepts any of them (keys
   * revoked before included): one entry per distinct id, in order. `report` as for `revoke`, once
   * for the batch.
   */
  async revokeMany(
    ids: readonly string[],
    at: Date,
    event: KeyEventContext,
    report?: ReportRevocation,
  ): Promise<{ id: string; status: RevokeManyStatus }[]> {
    const distinct = [...new Set(ids)];
    if (distinct.length === 0) return [];
    this.#dropAll(distinct);
    let rows: { id: string; revoked: boolean; revision: string | null }[];
    try {
      rows = await this.#db.transaction(async (tx) => {
        await tx.query(SQL.lockKeys, [distinct], { name: 'drops_auth_keys_lock', timeoutMs: this.#timeoutMs });
        const result = await tx.query<{ id: string; revoked: boolean; revision: string | null }>(
          SQL.revokeMany,
          [distinct, at, ...eventParams(event)],
          { name: 'drops_auth_keys_revoke_many', timeoutMs: this.#timeoutMs },
        );
        return result.rows;
      });
    } catch (error) {
      throw unavailable(error);
    } finally {
      this.#dropAll(distinct);
    }
    const statuses = new Map<string, RevokeManyStatus>();
    let highest: number | null = null;
    for (const row of rows) {
      statuses.set(row.id, row.revoked ? 'revoked' : 'already_revoked');
      // Acknowledging a revision acknowledges every earlier one: one wait covers the batch.
      if (row.revision != null) highest = Math.max(highest ?? 0, Number(row.revision));
    }
    if (highest !== null) await this.#waitForRevision(highest, report);
    return distinct.map((id) => ({ id, status: statuses.get(id) ?? 'unknown' }));
  }

  #dropAll(ids: readonly string[]): void {
    for (const id of ids) {
      this.#cache?.drop(id);
      this.#coherent?.drop(id);
    }
  }

  /**
   * Waits until no instance holding a lease may still accept a key revoked at `revision`, then
   * tells `onRevocationWait` and `report` how the instances took it.
   */
  async #waitForRevision(revision: number, report: ReportRevocation | undefined): Promise<void> {
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
    report?.({ instancesAcknowledged: wait.acknowledged, leasesExpired: wait.expired });
  }

  /**
   * The account's key events, newest first. The cursor is the `seq` of the last event of the
   * previous page; a malformed one is an `InvalidRequestError` (400) before any query.
   */
  async listEvents(accountId: string, page: { readonly limit: number; readonly cursor?: string }): Promise<KeyEventPage> {
    if (page.cursor !== undefined) parseEventCursor(page.cursor);
    if (!Number.isInteger(page.limit) || page.limit < 1) throw new InvalidRequestError('limit must be a positive integer');
    let rows: EventRow[];
    try {
      // One more than asked: whether there is a next page, without a second query.
      ({ rows } = await this.#db.query<EventRow>(SQL.listEvents, [accountId, page.cursor ?? null, page.limit + 1], {
        name: 'drops_auth_key_events_list',
        timeoutMs: this.#timeoutMs,
      }));
    } catch (error) {
      throw unavailable(error);
    }
    const events = rows.slice(0, page.limit);
    const more = rows.length > page.limit;
    return { events: events.map(eventOf), next: more ? events[events.length - 1]!.seq : null };
  }

  /** Records a revocation by value to carry out later: one insert, whatever the ids are. */
  async recordRevocationRequest(request: NewPendingRevocationRequest): Promise<void> {
    const { keyIds, at, event } = request;
    await this.#query(SQL.recordRevocationRequest, 'drops_auth_pending_revocations_record', [
      [...keyIds], at, event.source, event.actor, event.ip, event.userAgent, event.url,
    ]);
  }

  /** The recorded revocations by value not yet completed, oldest first. */
  async pendingRevocationRequests(options: { readonly limit: number }): Promise<PendingRevocationRequest[]> {
    const rows = await this.#query<PendingRevocationRow>(SQL.pendingRevocationRequests, 'drops_auth_pending_revocations_list', [options.limit]);
    return rows.map((row) => ({
      id: row.id,
      keyIds: row.key_ids,
      at: new Date(row.at),
      event: { source: row.source, actor: row.actor, ip: row.ip, userAgent: row.user_agent, url: row.url },
    }));
  }

  /** Deletes a recorded revocation by value once carried out. */
  async completeRevocationRequest(options: { readonly id: string }): Promise<void> {
    await this.#query(SQL.completeRevocationRequest, 'drops_auth_pending_revocations_complete', [options.id]);
  }

  /** One statement; a failure is the store's unavailable error. */
  async #query<R>(sql: string, name: string, params: unknown[]): Promise<R[]> {
    try {
      return (await this.#db.query<R>(sql, params, { name, timeoutMs: this.#timeoutMs })).rows;
    } catch (error) {
      throw unavailable(error);
    }
  }

  #nextAcknowledgement(): Promise<void> {
    if (this.#listener === null) return new Promise(() => {});
    return new Promise((resolve) => this.#acknowledgements.add(resolve));
  }

  /**
   * Notes a use of the key, to be written later. Synchronous, never throws, never waits. `info` is
   * called only for a use kept for writing; a key's first use written gets a `'first_used'` event.
   */
  recordUse(id: string, at: Date, info?: () => RequestInfo): void {
    this.#uses.record(id, at, info);
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

  /** Last-use times and the first uses' events, in one transaction (see `SQL.recordUses`). */
  async #writeUses(entries: ReadonlyMap<string, Date>, info: ReadonlyMap<string, LastUseInfo>): Promise<void> {
    const ids: string[] = [];
    const times: string[] = [];
    const ips: (string | null)[] = [];
    const agents: (string | null)[] = [];
    for (const [id, at] of entries) {
      ids.push(id);
      times.push(at.toISOString());
      const request = info.get(id);
      ips.push(request?.ip ?? null);
      agents.push(request?.userAgent ?? null);
    }
    await this.#db.transaction(async (tx) => {
      // Locked first, in id order: another instance writing the same key's first use waits here,
      // then sees its last use set and writes no second event.
      await tx.query(SQL.lockKeys, [ids], { name: 'drops_auth_keys_lock', timeoutMs: this.#timeoutMs });
      await tx.query(SQL.recordUses, [ids, times, ips, agents], { name: 'drops_auth_keys_record_uses', timeoutMs: this.#timeoutMs });
    });
  }
}
