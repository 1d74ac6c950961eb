import type {
  ActiveKey,
  KeyEventContext,
  KeyEventPage,
  KeyRecord,
  KeyStore,
  NewKeyRecord,
  NewPendingRevocationRequest,
  PendingRevocationRequest,
  RequestInfo,
  ReportRevocation,
  RevokeManyOptions,
  RevokeManyStatus,
  RevokeOptions,
  RollKeyOptions,
  RollKeyResult,
  SessionCutoffs,
  SignOutOptions,
} from '@drops/auth';
import { LastUsedBatcher } from '@drops/auth/internal';
import { listKeyEvents, listKeys } from './account-listings.js';
import { keyOfRow, newKeyArgs, type KeyRow } from './key-columns.js';
import type { KeyCache } from './key-cache/key-cache.js';
import { openKeyCache } from './key-cache/open-key-cache.js';
import { waitForAcknowledgements, type RevocationWait } from './lease/wait-for-acknowledgements.js';
import { parseStoreSettings, type PostgresKeyStoreOptions } from './postgres-key-store-options.js';
import { eventParams, mintedContext, SQL, UNATTRIBUTED } from './postgres-key-store-sql.js';
import { completeRevocationRequest, pendingRevocationRequests, recordRevocationRequest } from './pending-revocation-requests.js';
import type { Queryable, SqlExecutor } from './queryable.js';
import { creationError, unavailable } from './store-error.js';
import { writeLastUses } from './write-last-uses.js';
import { DatabaseClock } from './lease/database-clock.js';
import { requestInfoFrom } from '@drops/auth/internal';

/** Keys revoked per statement by revokeAll (about 0.5 s each here): every statement well within a query timeout. */
const REVOKE_ALL_STATEMENT_KEYS = 5_000;

/** A row of `SQL.findActive`: the active key's columns, and the database's time when it expires. */
type ActiveKeyRow = KeyRow & { readonly database_ms: string | number | null };

export type { PostgresKeyStoreOptions } from './postgres-key-store-options.js';

/**
 * The {@link KeyStore} on PostgreSQL, through `pg` or embedded PGlite.
 *
 * - `findActive` is one index lookup (`SELECT` by id among active keys). On PostgreSQL, keys
 *   found once answer from memory under a lease, unknown and revoked ids are answered from the
 *   lease's membership of every active id (no query), a mint resolves only when every instance
 *   knows the key, and `revoke` on any instance resolves only when no instance accepts the key
 *   any more; without its lease a lookup is a 503, never a query
 *   (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md; `cache: false` turns it off). On
 *   PGlite, which only this process can change, keys found once and the membership answer from
 *   memory with no lease, every change applied before its statement returns (`maxCachedKeys`).
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
export class PostgresKeyStore implements KeyStore, SessionCutoffs {
  readonly #db: Queryable;
  readonly #uses: LastUsedBatcher;
  readonly #closeDatabase: boolean;
  readonly #timeoutMs: number;
  /** None, in-process (PGlite) or leased (PostgreSQL): see `maxCachedKeys` and `cache`. */
  readonly #cache: KeyCache;
  readonly #monotonicNow: () => number;
  readonly #onRevocationWait: ((wait: RevocationWait) => void) | undefined;
  readonly #clock: DatabaseClock;
  readonly #onError: (error: unknown) => void;
  /** Keys whose 'expired' event this instance wrote (or is writing): one insert per key and process. */
  readonly #expiryRecorded = new Set<string>();
  #closed: Promise<void> | undefined;

  constructor(options: PostgresKeyStoreOptions) {
    const settings = parseStoreSettings(options);
    this.#db = settings.db;
    this.#closeDatabase = settings.closeDatabase;
    this.#timeoutMs = settings.queryTimeoutMs;
    this.#monotonicNow = settings.monotonicNow;
    this.#onRevocationWait = settings.onRevocationWait;
    this.#clock = new DatabaseClock(settings.wallNow);
    this.#onError = settings.onError ?? ((): void => {});
    this.#cache = openKeyCache({
      clock: this.#clock,
      db: settings.db,
      maxCachedKeys: settings.maxCachedKeys,
      leased: settings.cache,
      timing: settings.timing,
      monotonicNow: settings.monotonicNow,
      onError: settings.onError ?? ((): void => {}),
      queryTimeoutMs: settings.queryTimeoutMs,
    });
    this.#uses = new LastUsedBatcher({
      flush: (entries, info) => writeLastUses(this.#db, entries, info, this.#timeoutMs),
      minIntervalMs: settings.minUseIntervalMs,
      flushIntervalMs: settings.flushIntervalMs,
      ...(settings.onError ? { onError: settings.onError } : {}),
    });
  }

  /**
   * Stores a new active key and its `'minted'` event, in one statement, and resolves once every
   * instance holding a cache lease knows the key (as `revoke` waits): it then works on all of
   * them. Rejects with a plain `Error` if the id exists, `UnavailableError` if the database fails.
   */
  async create(key: NewKeyRecord, event?: KeyEventContext): Promise<void> {
    const params = SQL.create.params({ ...newKeyArgs(key), ...mintedContext(key, event) });
    let revision: number;
    try {
      revision = await this.#db.transaction(async (tx) => {
        await tx.query(SQL.create.text, params, { name: 'drops_auth_keys_create', timeoutMs: this.#timeoutMs });
        return this.#mintRevision(tx);
      });
    } catch (error) {
      throw creationError(error);
    }
    await this.#waitFor(revision);
  }

  async #mintRevision(tx: SqlExecutor): Promise<number> {
    const { rows } = await tx.query<{ revision: string }>(SQL.mintRevision, [], {
      name: 'drops_auth_mint_revision',
      timeoutMs: this.#timeoutMs,
    });
    return Number(rows[0]?.revision ?? 0);
  }

  /**
   * Creates the key unless its account already holds `maxActive` active keys; resolves whether it
   * did. Mints of one account take turns on a transaction-scoped advisory lock, so two instances
   * minting at once at `maxActive - 1` store one key, not two. The `'minted'` event is written by
   * the same statement; a stored key is known to every leased instance before this resolves.
   */
  async createWithinLimit(key: NewKeyRecord, maxActive: number, event?: KeyEventContext): Promise<boolean> {
    let minted: number | null;
    try {
      minted = await this.#db.transaction(async (tx) =>
        (await this.#insertWithinLimit(tx, key, maxActive, event, null)) ? this.#mintRevision(tx) : null,
      );
    } catch (error) {
      throw creationError(error);
    }
    if (minted === null) return false;
    await this.#waitFor(minted);
    return true;
  }

  /** The account's mint lock, then the key and its 'minted' event below the limit: whether it was stored. */
  async #insertWithinLimit(
    tx: SqlExecutor,
    key: NewKeyRecord,
    maxActive: number,
    event: KeyEventContext | undefined,
    replaces: string | null,
  ): Promise<boolean> {
    const params = SQL.createWithinLimit.params({ ...newKeyArgs(key), ...mintedContext(key, event), maxActive, replaces });
    await tx.query(SQL.lockAccountKeys, [key.accountId], { timeoutMs: this.#timeoutMs });
    const { rows } = await tx.query(SQL.createWithinLimit.text, params, {
      name: 'drops_auth_keys_create_within_limit',
      timeoutMs: this.#timeoutMs,
    });
    return rows.length === 1;
  }

  /**
   * Rolls a key in one transaction (the account's mint lock, the old key's row lock, the new key
   * below the limit, the old key's shorter expiry and both events), then waits, as `revoke` does,
   * until every instance holding a cache lease has dropped the old key (it reads the new expiry
   * next) or its lease has expired. The revision read last covers the new key's announcement too
   * (migration 11), so the new key works on every instance once this resolves, as a mint does.
   */
  async roll({ oldId, key, graceEndsAt, maxActive, event }: RollKeyOptions): Promise<RollKeyResult> {
    this.#cache.drop(oldId);
    let outcome: { result: RollKeyResult; revision: number | null };
    try {
      outcome = await this.#db.transaction(async (tx) => {
        const o = { timeoutMs: this.#timeoutMs };
        // The account lock first, as every mint takes it, then the old key's row.
        await tx.query(SQL.lockAccountKeys, [key.accountId], o);
        const { rows } = await tx.query<{ rolled_to: string | null; expired: boolean }>(
          SQL.lockRolledKey,
          [oldId, key.accountId, new Date(this.now())],
          o,
        );
        const old = rows[0];
        if (old === undefined || old.expired) return { result: { status: 'not_found' as const }, revision: null };
        if (old.rolled_to !== null) return { result: { status: 'already_rolled' as const }, revision: null };
        if (!(await this.#insertWithinLimit(tx, key, maxActive, event, oldId)))
          return { result: { status: 'limit' as const }, revision: null };
        const rolled = await tx.query<{ expires_at: Date }>(
          SQL.rollOld,
          [oldId, graceEndsAt, key.id, key.createdAt, ...eventParams(event)],
          o,
        );
        const { rows: revision } = await tx.query<{ revision: string }>(SQL.currentRevision, [], o);
        return {
          result: { status: 'rolled' as const, oldExpiresAt: new Date(rolled.rows[0]!.expires_at) },
          revision: Number(revision[0]!.revision),
        };
      });
    } catch (error) {
      throw creationError(error);
    } finally {
      this.#cache.drop(oldId);
    }
    if (outcome.revision !== null) await this.#waitForRevision(outcome.revision, undefined);
    return outcome.result;
  }

  /**
   * The active key with this id, or `null` if it is unknown or revoked: one index lookup, the same
   * work for both. On PGlite a key found before answers from memory (see `maxCachedKeys`).
   */
  findActive(id: string): Promise<ActiveKey | null> | ActiveKey | null {
    const known = this.#cache.get(id);
    if (known !== undefined) return known;
    if (!this.#cache.held) return this.#whenHeld(id);
    return this.#lookUp(id, this.#cache.generation);
  }

  /**
   * Without its lease (starting, or the lease session lost) the leased cache cannot tell an unknown
   * id from a new key: the lookup waits for the lease, at most a query's timeout, then is a 503.
   * Never a query per request, whatever a flood of random keys does meanwhile.
   */
  async #whenHeld(id: string): Promise<ActiveKey | null> {
    if (await this.#cache.heldWithin(this.#timeoutMs)) {
      const known = this.#cache.get(id);
      if (known !== undefined) return known;
      if (this.#cache.held) return this.#lookUp(id, this.#cache.generation);
    }
    throw unavailable(new Error('no cache lease: the key store cannot answer from memory'));
  }

  async #lookUp(id: string, generation: number): Promise<ActiveKey | null> {
    let rows: ActiveKeyRow[];
    const sentAt = this.#clock.wallNow();
    try {
      ({ rows } = await this.#db.query<ActiveKeyRow>(SQL.findActive, [id], {
        name: 'drops_auth_keys_find_active',
        timeoutMs: this.#timeoutMs,
      }));
    } catch (error) {
      this.#cache.failed();
      throw unavailable(error);
    }
    const row = rows[0];
    if (row === undefined) return null;
    if (row.database_ms !== null) this.#clock.observe(Number(row.database_ms), sentAt, this.#clock.wallNow());
    const key: ActiveKey = Object.freeze(keyOfRow('active', row));
    // Kept only if no revocation (or lease change) happened since the query was sent.
    this.#cache.remember(key, generation);
    return key;
  }

  /**
   * The account's sign-out cut-off (ms since the epoch), or `null`: from memory under the lease on
   * PostgreSQL (with the key membership: no query), and on PGlite; without its lease it waits for
   * it, at most a query's timeout, then rejects (a 503), never answering from stale data. A query
   * only without a cache (`cache: false`) or while a bulk change is re-read.
   */
  sessionCutoff(accountId: string): number | null | Promise<number | null> {
    const known = this.#cache.cutoff(accountId);
    if (known !== undefined) return known;
    if (!this.#cache.held) return this.#cutoffWhenHeld(accountId);
    return this.#queryCutoff(accountId);
  }

  async #cutoffWhenHeld(accountId: string): Promise<number | null> {
    if (await this.#cache.heldWithin(this.#timeoutMs)) {
      const known = this.#cache.cutoff(accountId);
      if (known !== undefined) return known;
      if (this.#cache.held) return this.#queryCutoff(accountId);
    }
    throw unavailable(new Error('no cache lease: the key store cannot answer sign-out cut-offs from memory'));
  }

  async #queryCutoff(accountId: string): Promise<number | null> {
    try {
      const { rows } = await this.#db.query<{ ms: string }>(SQL.sessionCutoff, [accountId], {
        name: 'drops_auth_session_cutoff',
        timeoutMs: this.#timeoutMs,
      });
      return rows[0] === undefined ? null : Number(rows[0].ms);
    } catch (error) {
      throw unavailable(error);
    }
  }

  /**
   * Moves the account's sign-out cut-off forward to `at` (never back) with its `'sessions_revoked'`
   * event, in one transaction, and resolves the cut-off in force once every instance holding a
   * cache lease has applied it or lost its lease (the wait of `revoke`; `report` as there).
   */
  async signOutEverywhere(accountId: string, { at, event, report }: SignOutOptions): Promise<Date> {
    let outcome: { cutoff: Date; revision: number };
    try {
      outcome = await this.#db.transaction(async (tx) => {
        const { rows } = await tx.query<{ tokens_valid_after: Date }>(SQL.signOut, [accountId, at, ...eventParams(event)], {
          name: 'drops_auth_sign_out',
          timeoutMs: this.#timeoutMs,
        });
        return { cutoff: new Date(rows[0]!.tokens_valid_after), revision: await this.#mintRevision(tx) };
      });
    } catch (error) {
      throw unavailable(error);
    }
    await this.#waitForRevision(outcome.revision, report);
    return outcome.cutoff;
  }

  /**
   * Resolves once the store can answer API keys: at once on PGlite or without a cache; on
   * PostgreSQL once its listening session has heard its own `NOTIFY` (sent through the query
   * connection, as announcements are) and holds its first lease, or failed for another reason
   * (then it retries, and checks are 503s meanwhile). Rejects with `NotificationsUnheardError`
   * when that first session cannot hear: a transaction-mode pooler without a `listenConnectionString`
   * (https://github.com/drops-dev/drops-auth/blob/main/docs/postgres.md#poolers). Await it before serving.
   *
   * @example
   * ```ts
   * const store = new PostgresKeyStore({ db });
   * await store.ready();
   * ```
   */
  ready(): Promise<void> {
    return this.#cache.ready();
  }

  /**
   * Whether API-key checks are answered now; `false` while a PostgreSQL store has no lease (starting,
   * database lost, or not hearing announcements): checks are 503s. For a health check.
   */
  get answeringKeys(): boolean {
    return this.#cache.held;
  }

  /**
   * How many of the lease session's hearing checks went unheard (each one lapsed the lease): a
   * counter for metrics, 0 on PGlite or without a cache.
   */
  get notificationsUnheard(): number {
    return this.#cache.unheard;
  }

  /** The account's active keys, newest first. */
  listByAccount(accountId: string): Promise<KeyRecord[]> {
    return listKeys(this.#db, this.#timeoutMs, accountId);
  }

  /**
   * Revokes the account's active key: `true` if this call revoked it, `false` if the account has
   * no active key with this id. Resolves only once no instance accepts the key: the revocation is
   * committed and announced, and every instance holding a cache lease has acknowledged it or its
   * lease has expired (at most `leaseMs`; see the revocation guide). A key already revoked waits for that
   * earlier revocation before `false`. The `'revoked'` event is written in the same transaction;
   * `report` gets the instances' acknowledgements and expired leases once the wait is over.
   */
  async revoke(accountId: string, id: string, { at, event, report }: RevokeOptions): Promise<boolean> {
    await this.#writeUsesBeforeRevoking();
    // Dropped before the update (no lookup from now on answers from memory) and again after it
    // (a lookup that read the row before the commit does not put it back: the generation moved).
    this.#cache.drop(id);
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
      this.#cache.drop(id);
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
  async revokeMany(ids: readonly string[], { at, event, report }: RevokeManyOptions): Promise<{ id: string; status: RevokeManyStatus }[]> {
    const distinct = [...new Set(ids)];
    if (distinct.length === 0) return [];
    await this.#writeUsesBeforeRevoking();
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

  /**
   * Revokes every active key of the account in one transaction (the account's lock, as mints and
   * rolls take it, then its keys locked in id order, as `revokeMany` locks), one `'revoked'` event
   * each, then one wait for the highest revision. The account lock makes it serial with the
   * account's mints and rolls: a key a roll inserts is revoked too, or the roll finds its old key
   * revoked.
   */
  async revokeAll(accountId: string, { at, event, report }: RevokeOptions): Promise<number> {
    await this.#writeUsesBeforeRevoking();
    let rows: { id: string; revoked: boolean; revision: string | null }[];
    try {
      rows = await this.#db.transaction(async (tx) => {
        const o = { timeoutMs: this.#timeoutMs };
        await tx.query(SQL.lockAccountKeys, [accountId], o);
        const { rows: locked } = await tx.query<{ id: string }>(SQL.lockAccountActiveKeys, [accountId], o);
        if (locked.length === 0) return [];
        const ids = locked.map((r) => r.id);
        const revoked: { id: string; revoked: boolean; revision: string | null }[] = [];
        // In statements of REVOKE_ALL_STATEMENT_KEYS keys, each within the query timeout, all in
        // this one transaction: an account with 100 000 keys is revoked too, not timed out.
        for (let from = 0; from < ids.length; from += REVOKE_ALL_STATEMENT_KEYS) {
          const result = await tx.query<{ id: string; revoked: boolean; revision: string | null }>(
            SQL.revokeMany,
            [ids.slice(from, from + REVOKE_ALL_STATEMENT_KEYS), at, ...eventParams(event ?? UNATTRIBUTED)],
            { name: 'drops_auth_keys_revoke_many', ...o },
          );
          revoked.push(...result.rows);
        }
        return revoked;
      });
    } catch (error) {
      throw unavailable(error);
    }
    this.#dropAll(rows.map((r) => r.id));
    const revoked = rows.filter((r) => r.revoked);
    const highest = Math.max(0, ...revoked.map((r) => Number(r.revision ?? 0)));
    if (revoked.length > 0) await this.#waitForRevision(highest, report);
    return revoked.length;
  }

  /**
   * Writes the uses this instance holds (and waits for a write in flight) before a revocation, so
   * a key's `'first_used'` event never comes after its `'revoked'` one in the log. Nothing to write
   * costs nothing; a failed write is kept for the next flush, and the revocation goes on.
   */
  async #writeUsesBeforeRevoking(): Promise<void> {
    await this.#uses.flush();
  }

  #dropAll(ids: readonly string[]): void {
    for (const id of ids) this.#cache.drop(id);
  }

  /**
   * Waits until no instance holding a lease may still accept a key revoked at `revision`, then
   * tells `onRevocationWait` and `report` how the instances took it.
   */
  async #waitForRevision(revision: number, report: ReportRevocation | undefined): Promise<void> {
    const wait = await this.#waitFor(revision);
    this.#onRevocationWait?.(wait);
    report?.({ instancesAcknowledged: wait.acknowledged, leasesExpired: wait.expired });
  }

  /**
   * Until no instance holding a lease has yet to apply `revision` (a mint or a revocation). A mint
   * resolves after it, so the key works everywhere from then on; if the wait fails the caller
   * answers 503 and the secret is never shown, so the key committed meanwhile can never be used.
   */
  #waitFor(revision: number): Promise<RevocationWait> {
    const cache = this.#cache;
    return waitForAcknowledgements({
      db: this.#db,
      revision,
      monotonicNow: this.#monotonicNow,
      nextAcknowledgement: () => cache.nextAcknowledgement(),
      maxPollMs: cache.maxPollMs,
      maxWaitMs: cache.maxWaitMs,
      timeoutMs: this.#timeoutMs,
    }).catch((error: unknown) => Promise.reject(unavailable(error)));
  }

  /** The account's key events, newest first; a malformed cursor is a 400 before any query. */
  listEvents(accountId: string, page: { readonly limit: number; readonly cursor?: string }): Promise<KeyEventPage> {
    return listKeyEvents(this.#db, this.#timeoutMs, accountId, page);
  }

  /** Records a revocation by value to carry out later (`POST /credentials/revoke`). */
  recordRevocationRequest(request: NewPendingRevocationRequest): Promise<void> {
    return recordRevocationRequest(this.#db, this.#timeoutMs, request);
  }

  /** The recorded revocations by value not yet completed, oldest first. */
  pendingRevocationRequests(options: { readonly limit: number }): Promise<PendingRevocationRequest[]> {
    return pendingRevocationRequests(this.#db, this.#timeoutMs, options.limit);
  }

  /** Forgets a recorded revocation by value once carried out. */
  completeRevocationRequest(options: { readonly id: string }): Promise<void> {
    return completeRevocationRequest(this.#db, this.#timeoutMs, options.id);
  }

  /**
   * Notes a use of the key, to be written later. Synchronous, never throws, never waits. `info` is
   * called only for a use kept for writing; a key's first use written gets a `'first_used'` event.
   */
  recordUse(id: string, at: Date, info?: () => RequestInfo): void {
    this.#uses.record(id, at, info);
  }

  /**
   * The database's time (ms since the epoch): the process's clock plus the offset measured from the
   * lease renewals and the lookups of expiring keys, so every instance refuses an expired key at
   * the same instant.
   */
  now(): number {
    return this.#clock.now();
  }

  /**
   * Writes the key's one `'expired'` event, in the background: at most one insert per key from this
   * process, and the partial unique index makes a second one (another instance's) do nothing. A
   * failure goes to `onError` and is tried again at the next expired request.
   */
  recordExpired(id: string, info?: () => RequestInfo): void {
    if (this.#expiryRecorded.has(id)) return;
    this.#expiryRecorded.add(id);
    const { ip, userAgent } = requestInfoFrom(info);
    this.#db.query(SQL.recordExpired, [id, ip, userAgent], { name: 'drops_auth_keys_record_expired', timeoutMs: this.#timeoutMs }).then(
      () => {},
      (error: unknown) => {
        this.#expiryRecorded.delete(id);
        this.#onError(unavailable(error));
      },
    );
  }

  /** Writes the uses recorded so far now, instead of at the next interval. */
  flushUses(): Promise<void> {
    return this.#uses.flush();
  }

  /** Writes pending uses, then stops; closes the database too when `closeDatabase` was set. Idempotent. */
  close(): Promise<void> {
    this.#closed ??= (async (): Promise<void> => {
      await this.#cache.close();
      await this.#uses.close();
      if (this.#closeDatabase) await this.#db.close();
    })();
    return this.#closed;
  }
}
