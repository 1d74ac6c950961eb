import type { RateLimit, RateLimitStore } from '@drops/auth';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { RATE_LIMITS_TABLE } from './key-store-migrations.js';
import type { Queryable } from './queryable.js';

/** Options of {@link PostgresRateLimitStore}. */
export interface PostgresRateLimitStoreOptions {
  /** The database every instance shares, migrated by `migrateKeyStore` (migration 8 makes the table). */
  readonly db: Queryable;
  /** Give up on a count after this long (the caller answers 503). Default 2 000 ms. */
  readonly queryTimeoutMs?: number;
}

/** Longest key the table holds is 255; a longer `<scope>:<subject>` is counted under its SHA-256. */
const MAX_PLAIN_KEY_LENGTH = 200;

/** What rate-limiter-flexible sends to its `storeClient`. */
interface LibraryQuery {
  readonly name?: string;
  readonly text: string;
  readonly values?: unknown[];
}

/**
 * A {@link RateLimitStore} in PostgreSQL: every instance on one database shares one count per
 * scope and subject, so a limit holds behind a load balancer. Counting is rate-limiter-flexible's
 * `RateLimiterPostgres` (one atomic upsert per action: `max` per window of `windowMs`, the window
 * starting at a subject's first action), on the table migration 8 creates, so nothing is created
 * at run time. A subject over its limit is then refused from memory until its window ends, with no
 * query. A database that cannot answer rejects `take` (a 503 upstream, never a success). The rows
 * of windows over an hour ago are deleted every five minutes.
 *
 * @example
 * ```ts
 * import { createKeyManager } from '@drops/auth';
 * import { PostgresKeyStore, PostgresRateLimitStore, openPostgres, migrateKeyStore } from '@drops/auth-postgres';
 *
 * const db = await openPostgres({ connectionString: process.env.DATABASE_URL! });
 * await migrateKeyStore(db);
 * const keys = createKeyManager({
 *   keyStore: new PostgresKeyStore({ db }),
 *   rateLimitStore: new PostgresRateLimitStore({ db }),
 *   mintRateLimit: { max: 10, windowMs: 3_600_000 },
 * });
 * ```
 */
export class PostgresRateLimitStore implements RateLimitStore {
  readonly #client: { query(query: LibraryQuery): Promise<{ rows: unknown[]; rowCount: number }> };
  readonly #limiters = new Map<string, RateLimiterPostgres>();

  constructor(options: PostgresRateLimitStoreOptions) {
    if (typeof (options as Partial<PostgresRateLimitStoreOptions> | undefined)?.db?.query !== 'function') {
      throw new TypeError('PostgresRateLimitStore: options.db must be a Queryable (openPostgres, fromPgPool)');
    }
    const { db } = options;
    const timeoutMs = options.queryTimeoutMs ?? 2_000;
    // The library's pg-shaped client, over our Queryable: named statements, a timeout, rowCount.
    this.#client = {
      async query(query) {
        const { rows } = await db.query(query.text, query.values ?? [], {
          ...(query.name !== undefined ? { name: query.name } : {}),
          timeoutMs,
        });
        return { rows, rowCount: rows.length };
      },
    };
  }

  async take(scope: string, subject: string, limit: RateLimit): Promise<number> {
    const limiter = this.#limiterFor(scope, limit);
    try {
      await limiter.consume(await keyOf(subject, scope));
      return 0;
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) return Math.max(1, outcome.msBeforeNext);
      throw outcome;
    }
  }

  #limiterFor(scope: string, limit: RateLimit): RateLimiterPostgres {
    const id = `${scope}\u0000${limit.max}\u0000${limit.windowMs}`;
    let limiter = this.#limiters.get(id);
    if (limiter === undefined) {
      limiter = new RateLimiterPostgres({
        storeClient: this.#client,
        storeType: 'pool',
        tableName: RATE_LIMITS_TABLE,
        tableCreated: true,
        keyPrefix: scope,
        points: limit.max,
        duration: limit.windowMs / 1000,
        // Past the limit, refused from memory until the window ends: a flood costs no query.
        inMemoryBlockOnConsumed: limit.max + 1,
        // One sweep of expired rows is enough for the table.
        clearExpiredByTimeout: this.#limiters.size === 0,
      });
      this.#limiters.set(id, limiter);
    }
    return limiter;
  }
}

/** The subject as the library keys it (it prefixes the scope): itself, or its SHA-256 when too long. */
async function keyOf(subject: string, scope: string): Promise<string> {
  if (scope.length + 1 + subject.length <= MAX_PLAIN_KEY_LENGTH) return subject;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(subject));
  return `sha256:${Buffer.from(digest).toString('hex')}`;
}
