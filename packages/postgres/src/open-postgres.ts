import { fromPgPool } from './from-pg-pool.js';
import type { Queryable } from './queryable.js';

/**
 * Options of {@link openPostgres} (and {@link openPostgresKeyStore}).
 *
 * @example
 * ```ts
 * const options: OpenPostgresOptions = { connectionString: 'postgres://drops@db.internal/drops', maxConnections: 20 };
 * ```
 */
export interface OpenPostgresOptions {
  /** A PostgreSQL URL, e.g. `postgres://user:pass@db.internal:5432/drops`. */
  readonly connectionString: string;
  /** Most connections the pool opens. Default 10. */
  readonly maxConnections?: number;
  /** How long to wait for a new connection before the query fails (a 503), in ms. Default 5 000. */
  readonly connectionTimeoutMs?: number;
  /** Called when an idle connection drops. Default: ignore (the pool replaces it). */
  readonly onIdleError?: (error: Error) => void;
}

function checkOptions(options: OpenPostgresOptions): void {
  if (options === null || typeof options !== 'object') throw new TypeError('openPostgres: options are required');
  const { connectionString, maxConnections, connectionTimeoutMs, onIdleError } = options;
  if (typeof connectionString !== 'string' || !/^postgres(ql)?:\/\//.test(connectionString)) {
    throw new TypeError('openPostgres: connectionString must be a postgres:// or postgresql:// URL');
  }
  if (maxConnections !== undefined && !(Number.isSafeInteger(maxConnections) && maxConnections >= 1)) {
    throw new TypeError('openPostgres: maxConnections must be a positive integer');
  }
  if (connectionTimeoutMs !== undefined && !(Number.isSafeInteger(connectionTimeoutMs) && connectionTimeoutMs >= 1)) {
    throw new TypeError('openPostgres: connectionTimeoutMs must be a positive integer');
  }
  if (onIdleError !== undefined && typeof onIdleError !== 'function') {
    throw new TypeError('openPostgres: onIdleError must be a function');
  }
}

/**
 * Opens a `pg.Pool` on a PostgreSQL server as a {@link Queryable}. Imports `pg` only when called,
 * so an app on PGlite never needs it installed. Nothing is migrated: see {@link migrateKeyStore}
 * and {@link migrate}, or {@link openPostgresKeyStore}.
 *
 * @example
 * ```ts
 * const db = await openPostgres({ connectionString: process.env.DATABASE_URL! });
 * await migrate(db, { namespace: 'drops_server', migrations });
 * ```
 */
export async function openPostgres(options: OpenPostgresOptions): Promise<Queryable> {
  checkOptions(options);
  const pg = await import('pg');
  const Pool = pg.Pool ?? pg.default.Pool;
  const pool = new Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    keepAlive: true,
  });
  return fromPgPool(pool, options.onIdleError ? { onIdleError: options.onIdleError } : {});
}
