import type { DedicatedSession } from './dedicated-session.js';
import type { QueryOptions, QueryResult, Queryable, SqlExecutor } from './queryable.js';

/**
 * What {@link fromPgPool} uses of a `pg` client: structurally, so `pg` stays an optional peer.
 *
 * @example
 * ```ts
 * const client: PgClientLike = await pool.connect();
 * ```
 */
/**
 * What {@link fromPgPool} hands to pg's `query()`.
 *
 * @example
 * ```ts
 * const config: PgQueryConfig = { text: 'select 1', query_timeout: 5_000 };
 * ```
 */
export interface PgQueryConfig {
  text: string;
  values?: unknown[];
  name?: string;
  query_timeout?: number;
}

export interface PgClientLike {
  query(config: PgQueryConfig): Promise<{ rows: unknown[] }>;
  query(text: string): Promise<unknown>;
  release(error?: Error | boolean): void;
  /** pg's `Client` is an EventEmitter: a connection lost while checked out is an `'error'` event. */
  on?(event: 'error', listener: (error: Error) => void): unknown;
  removeListener?(event: 'error', listener: (error: Error) => void): unknown;
}

/** The events of a pg `Client` a dedicated session listens to (pg's `Client` has them). */
interface PgSessionEvents {
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): unknown;
}

async function openSessionOn(pool: PgPoolLike): Promise<DedicatedSession> {
  const client = await pool.connect();
  const events = client as unknown as Partial<PgSessionEvents>;
  if (typeof events.on !== 'function') {
    client.release(true);
    throw new TypeError("fromPgPool: the pool's clients do not emit events (expected pg.Pool)");
  }
  let onNotification: (channel: string, payload: string) => void = () => {};
  let onLost: (error: Error) => void = () => {};
  let done = false;
  const lose = (error: Error): void => {
    if (done) return;
    done = true;
    client.release(error);
    onLost(error);
  };
  events.on('error', lose);
  events.on('end', () => lose(new Error("the session's connection ended")));
  events.on('notification', (message) => {
    if (!done) onNotification(message.channel, message.payload ?? '');
  });
  return {
    ...executorOf(client),
    onNotification(listener): void {
      onNotification = listener;
    },
    onLost(listener): void {
      onLost = listener;
    },
    release(): void {
      if (done) return;
      done = true;
      // An error makes the pool destroy the connection instead of reusing a LISTENing session.
      client.release(new Error('session released'));
    },
  };
}

/**
 * What {@link fromPgPool} uses of a `pg.Pool`. A real `pg.Pool` satisfies it.
 *
 * @example
 * ```ts
 * const pool: PgPoolLike = new pg.Pool();
 * ```
 */
export interface PgPoolLike {
  query(config: PgQueryConfig): Promise<{ rows: unknown[] }>;
  connect(): Promise<PgClientLike>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * Options of {@link fromPgPool}.
 *
 * @example
 * ```ts
 * fromPgPool(pool, { onIdleError: (err) => log.warn({ err }, 'idle PostgreSQL connection dropped') });
 * ```
 */
export interface FromPgPoolOptions {
  /**
   * A second pool, on a direct (or session-mode pooled) connection, for the sessions that `LISTEN`
   * and hold the cache lease (https://github.com/drops-dev/drops-auth/blob/main/docs/postgres.md#poolers); queries go through `pool`. Given, `pool` is
   * taken to be a transaction-mode pooler: its statements are never named (no prepared statement
   * outlives a transaction there). Default: sessions from `pool`, statements named.
   */
  listenPool?: PgPoolLike;
  /**
   * Called when an idle pooled connection fails (the server restarted, the network dropped it).
   * The pool discards that connection and opens a new one on the next query. Default: ignore.
   */
  onIdleError?: (error: Error) => void;
}

/**
 * `named: false` drops statement names: behind a transaction-mode pooler a statement prepared on one
 * server connection is missing (or already there) on the next one the pooler hands out.
 */
function executorOf(client: PgPoolLike | PgClientLike, named = true): SqlExecutor {
  return {
    async query<Row>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<Row>> {
      // pg reads `values` without changing it: no copy on the hot path.
      const config: PgQueryConfig = { text: sql, values: params as unknown[] | undefined };
      if (named && options?.name !== undefined) config.name = options.name;
      // pg rejects with "Query read timeout" and, through pool.query, discards the connection.
      if (options?.timeoutMs !== undefined) config.query_timeout = options.timeoutMs;
      const result = await client.query(config);
      return { rows: result.rows as Row[] };
    },
    async exec(script: string): Promise<void> {
      // No parameters: pg uses the simple protocol, which runs several statements.
      await client.query({ text: script });
    },
  };
}

/**
 * Makes a {@link Queryable} of a `pg.Pool`. Attaches an `error` listener to the pool so a dropped
 * idle connection does not crash the process: the pool replaces it, and the store works again as
 * soon as the database answers, with no restart.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * const db = fromPgPool(new pg.Pool({ connectionString: process.env.DATABASE_URL }));
 * await migrateKeyStore(db);
 * const store = new PostgresKeyStore({ db });
 * ```
 */
export function fromPgPool(pool: PgPoolLike, options: FromPgPoolOptions = {}): Queryable {
  if (pool === null || typeof pool !== 'object' || typeof pool.query !== 'function' || typeof pool.connect !== 'function') {
    throw new TypeError('fromPgPool: expected a pg.Pool');
  }
  const onIdleError = options.onIdleError ?? ((): void => {});
  if (typeof onIdleError !== 'function') throw new TypeError('fromPgPool: onIdleError must be a function');
  pool.on('error', onIdleError);
  const listenPool = options.listenPool;
  if (listenPool !== undefined) {
    if (listenPool === null || typeof listenPool !== 'object' || typeof listenPool.connect !== 'function') {
      throw new TypeError('fromPgPool: listenPool must be a pg.Pool');
    }
    listenPool.on('error', onIdleError);
  }
  const named = listenPool === undefined;
  const direct = executorOf(pool, named);
  let ended: Promise<void> | undefined;
  return {
    query: direct.query,
    exec: direct.exec,
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken: Error | undefined;
      // The pool listens for errors only on idle clients. A connection lost while this one is
      // checked out (between two statements) is emitted as 'error': unheard, it would crash the
      // process. Heard, it marks the client broken; the statement in flight rejects by itself.
      const onError = (error: Error): void => {
        broken = error;
      };
      client.on?.('error', onError);
      try {
        await client.query('begin');
        const result = await fn(executorOf(client, named));
        await client.query('commit');
        return result;
      } catch (error) {
        try {
          await client.query('rollback');
        } catch (rollbackError) {
          // The connection is unusable: make the pool drop it instead of reusing it.
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        }
        throw error;
      } finally {
        client.removeListener?.('error', onError);
        client.release(broken ?? false);
      }
    },
    close(): Promise<void> {
      ended ??= Promise.all([pool.end(), listenPool?.end()]).then(() => {});
      return ended;
    },
    openSession: () => openSessionOn(listenPool ?? pool),
  };
}
