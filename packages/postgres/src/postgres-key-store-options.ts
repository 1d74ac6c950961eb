import { z } from 'zod';
import type { LeaseTiming } from './lease/lease.js';
import type { RevocationWait } from './lease/wait-for-acknowledgements.js';
import { parseOptions } from './parse-options.js';
import type { Queryable } from './queryable.js';

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
   * query. On an in-process database (PGlite) they are kept with the membership of every active id
   * (unknown and revoked ids cost no query either), which every change of a key updates before its
   * statement returns; on PostgreSQL both are kept under a lease (see `cache`). Default 10 000; 0
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
   * This process's wall clock in ms since the epoch, which the store corrects to the database's
   * (`now()`, the clock of key expiry). Default `Date.now`. For tests (a skewed clock).
   */
  readonly wallNow?: () => number;
  /**
   * Called after each revoke's wait for acknowledgements (for metrics). Default: nothing. The key
   * manager also publishes the counts, per key revoked, on `drops-auth:revocation`.
   */
  readonly onRevocationWait?: (wait: RevocationWait) => void;
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
  wallNow: z.custom<() => number>((v) => typeof v === 'function', 'must be a function').optional(),
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
        typeof v === 'object' && v !== null && typeof (v as Queryable).query === 'function' && typeof (v as Queryable).close === 'function',
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

/** The options of a {@link PostgresKeyStore}, checked, with their defaults. @internal */
export interface StoreSettings {
  readonly db: Queryable;
  readonly closeDatabase: boolean;
  readonly queryTimeoutMs: number;
  readonly minUseIntervalMs: number;
  readonly flushIntervalMs: number;
  readonly maxCachedKeys: number;
  readonly cache: boolean;
  readonly timing: LeaseTiming;
  readonly monotonicNow: () => number;
  readonly wallNow: () => number;
  readonly onError: ((error: unknown) => void) | undefined;
  readonly onRevocationWait: ((wait: RevocationWait) => void) | undefined;
}

/** Checks a store's options (a `TypeError` for a bad one) and fills in the defaults. @internal */
export function parseStoreSettings(options: PostgresKeyStoreOptions): StoreSettings {
  parseOptions('PostgresKeyStore', optionsSchema, options);
  checkLease(options);
  const leaseMs = options.leaseMs ?? 6_000;
  return {
    db: options.db,
    closeDatabase: options.closeDatabase ?? false,
    queryTimeoutMs: options.queryTimeoutMs ?? 5_000,
    minUseIntervalMs: options.minUseIntervalMs ?? 60_000,
    flushIntervalMs: options.flushIntervalMs ?? 5_000,
    maxCachedKeys: options.maxCachedKeys ?? 10_000,
    cache: options.cache ?? true,
    timing: { leaseMs, marginMs: options.leaseMarginMs ?? Math.min(1_000, Math.floor(leaseMs / 6)) },
    monotonicNow: options.monotonicNow ?? ((): number => performance.now()),
    wallNow: options.wallNow ?? ((): number => Date.now()),
    onError: options.onError,
    onRevocationWait: options.onRevocationWait,
  };
}
