import { fromPgPool } from './from-pg-pool.js';
import type { Queryable } from './queryable.js';
import { z } from 'zod';
import { parseOptions } from './parse-options.js';

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
  /**
   * A direct (or session-mode pooled) URL for the connections that `LISTEN` and hold the cache
   * lease, when `connectionString` goes through a transaction-mode pooler (PgBouncer, Supabase's
   * or Neon's pooled URL, RDS Proxy): see https://github.com/drops-dev/drops-auth/blob/main/docs/postgres.md#poolers. Queries stay on
   * `connectionString`, unnamed. Default: everything on `connectionString`.
   */
  readonly listenConnectionString?: string;
  /** Most connections the pool opens. Default 10. */
  readonly maxConnections?: number;
  /** How long to wait for a new connection before the query fails (a 503), in ms. Default 5 000. */
  readonly connectionTimeoutMs?: number;
  /** Called when an idle connection drops. Default: ignore (the pool replaces it). */
  readonly onIdleError?: (error: Error) => void;
}

/** The options of {@link openPostgres}, for the schemas that add to them. @internal */
const postgresUrl = z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL');
export const openPostgresShape = {
  connectionString: postgresUrl,
  listenConnectionString: postgresUrl.optional(),
  maxConnections: z.number().int().positive().optional(),
  connectionTimeoutMs: z.number().int().positive().optional(),
  onIdleError: z.custom<(error: Error) => void>((v) => typeof v === 'function', 'must be a function').optional(),
};

const optionsSchema = z.strictObject(openPostgresShape, { error: 'options are required' });

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
  parseOptions('openPostgres', optionsSchema, options);
  const pg = await import('pg');
  const Pool = pg.Pool ?? pg.default.Pool;
  const poolOn = (connectionString: string, max: number): InstanceType<typeof Pool> =>
    new Pool({ connectionString, max, connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000, keepAlive: true });
  const pool = poolOn(options.connectionString, options.maxConnections ?? 10);
  return fromPgPool(pool, {
    ...(options.onIdleError ? { onIdleError: options.onIdleError } : {}),
    // The lease session, and a second one while a stale membership is re-read.
    ...(options.listenConnectionString !== undefined ? { listenPool: poolOn(options.listenConnectionString, 2) } : {}),
  });
}
