import type { DedicatedSession } from './dedicated-session.js';

/**
 * Rows a query answered with. Both `pg` and PGlite results have this shape.
 *
 * @example
 * ```ts
 * const { rows }: QueryResult<{ n: number }> = await db.query('select 1 as n');
 * ```
 */
export interface QueryResult<Row> {
  readonly rows: Row[];
}

/**
 * Per-query hints an engine may use and another may ignore.
 *
 * @example
 * ```ts
 * await db.query('select account_id from drops_auth_keys where id = $1', [id], { name: 'find_key' });
 * ```
 */
export interface QueryOptions {
  /**
   * A name for the statement. With `pg` it becomes a named prepared statement, parsed once per
   * connection and reused; PGlite ignores it. One name must always mean the same SQL text.
   */
  readonly name?: string;
  /**
   * Give up on an answer after this long: the query rejects (a 503 upstream) instead of waiting on
   * a database that accepts connections but no longer answers. With `pg` the connection is then
   * discarded; PGlite, in process, ignores it.
   */
  readonly timeoutMs?: number;
}

/**
 * Runs SQL on one database session: the part of {@link Queryable} that is also available inside a
 * transaction.
 *
 * @example
 * ```ts
 * await db.transaction(async (tx: SqlExecutor) => {
 *   await tx.exec('create table a (id int); create table b (id int);');
 *   await tx.query('insert into a values ($1)', [1]);
 * });
 * ```
 */
export interface SqlExecutor {
  /** One statement with `$1`-style parameters. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<Row>>;
  /** A script of several `;`-separated statements, without parameters (migrations). */
  exec(script: string): Promise<void>;
}

/**
 * The small database interface the key store and {@link migrate} need. {@link fromPgPool} and
 * {@link fromPGlite} make one from a `pg.Pool` or a PGlite instance: one SQL dialect, either engine.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * const db: Queryable = fromPgPool(new pg.Pool({ connectionString: process.env.DATABASE_URL }));
 * const { rows } = await db.query<{ now: Date }>('select now() as now');
 * ```
 */
export interface Queryable extends SqlExecutor {
  /**
   * Runs `fn` in a transaction on one session: committed when `fn` resolves, rolled back when it
   * rejects. Session-level state (`pg_advisory_xact_lock`, `set local`) holds for all of `fn`.
   */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Releases the engine (ends the pool, closes PGlite). */
  close(): Promise<void>;
  /**
   * Set only when this process is the database's one and only client (PGlite, embedded): the
   * engine instance, and whether it is still open. Every change to the data then goes through
   * this process, so a store may keep what it reads and drop it when it makes a change itself
   * (see `PostgresKeyStore`'s active-key cache). A server (`pg`) never sets it: other processes
   * write there. `listen`, when the engine has it, calls `onPayload` for each `NOTIFY` on
   * `channel`, before the statement that committed it resolves: the store's membership of
   * active ids follows every change through it.
   */
  readonly inProcess?: {
    readonly engine: object;
    isOpen(): boolean;
    listen?(channel: string, onPayload: (payload: string) => void): Promise<unknown>;
  };
  /**
   * Opens a connection of its own, outside the pool's rotation, for `LISTEN` and lease renewal
   * (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md). {@link fromPgPool} provides it; without it a store does not cache keys.
   */
  readonly openSession?: () => Promise<DedicatedSession>;
}
