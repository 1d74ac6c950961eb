import type { QueryResult, Queryable, SqlExecutor } from './queryable.js';

/**
 * What {@link fromPGlite} uses of a PGlite transaction.
 *
 * @example
 * ```ts
 * await pglite.transaction(async (tx: PGliteTransactionLike) => tx.query('select 1'));
 * ```
 */
export interface PGliteTransactionLike {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  exec(sql: string): Promise<unknown>;
}

/**
 * What {@link fromPGlite} uses of a PGlite instance: structurally, so PGlite stays an optional peer.
 *
 * @example
 * ```ts
 * const db: PGliteLike = await PGlite.create('.data');
 * ```
 */
export interface PGliteLike extends PGliteTransactionLike {
  transaction<T>(fn: (tx: PGliteTransactionLike) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly closed?: boolean;
  /** `LISTEN` in process: without it, a store looks every unknown id up in the database. */
  listen?(channel: string, callback: (payload: string) => void): Promise<unknown>;
}

function executorOf(db: PGliteTransactionLike): SqlExecutor {
  return {
    async query<Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>> {
      const result = await db.query(sql, params === undefined ? undefined : [...params]);
      return { rows: result.rows as Row[] };
    },
    async exec(script: string): Promise<void> {
      await db.exec(script);
    },
  };
}

/**
 * Makes a {@link Queryable} of a PGlite instance (embedded PostgreSQL, in memory or on disk).
 * PGlite is one connection: its queries and transactions run one at a time, and advisory locks
 * work as on a server.
 *
 * @example
 * ```ts
 * import { PGlite } from '@electric-sql/pglite';
 * const db = fromPGlite(await PGlite.create('./.data'));
 * await migrateKeyStore(db);
 * const store = new PostgresKeyStore({ db });
 * ```
 */
export function fromPGlite(db: PGliteLike): Queryable {
  if (db === null || typeof db !== 'object' || typeof db.query !== 'function' || typeof db.transaction !== 'function') {
    throw new TypeError('fromPGlite: expected a PGlite instance');
  }
  const direct = executorOf(db);
  let closed: Promise<void> | undefined;
  return {
    query: direct.query,
    exec: direct.exec,
    transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      return db.transaction((tx) => fn(executorOf(tx)));
    },
    close(): Promise<void> {
      closed ??= db.closed === true ? Promise.resolve() : db.close();
      return closed;
    },
    // PGlite is in-process and single-client: nothing but this process can change its data.
    inProcess: {
      engine: db,
      isOpen: () => closed === undefined && db.closed !== true,
      ...(typeof db.listen === 'function' ? { listen: db.listen.bind(db) } : {}),
    },
  };
}
