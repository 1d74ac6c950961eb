import { systemClock, type Clock } from '../clock.js';
import { UnavailableError } from '../errors/unavailable-error.js';
import { RateLimiter, type RateLimit } from './rate-limiter.js';

/**
 * Where rate limits are counted: one seam for every limit of the core (mints per account, revokes
 * by value per client address, secret scanning alerts) and of an app (the reference server's
 * anonymous deploys and failed authentications). The default, {@link inProcessRateLimitStore},
 * counts in this process; `PostgresRateLimitStore` (`@drops/auth-postgres`) counts in the
 * database, so every instance on it shares one count.
 *
 * @example
 * ```ts
 * import { inProcessRateLimitStore, type RateLimitStore } from '@drops/auth';
 *
 * const limits: RateLimitStore = inProcessRateLimitStore();
 * const waitMs = await limits.take('exports', 'acct_1', { max: 10, windowMs: 60_000 });
 * if (waitMs > 0) console.log(`try again in ${Math.ceil(waitMs / 1000)} s`);
 * ```
 */
export interface RateLimitStore {
  /**
   * Counts one action of `subject` in the limit named `scope` (`'mint'`, `'revoke_by_value'`, …:
   * each scope counts apart, and one scope always has the same `limit`). Resolves 0 when it is
   * allowed (and counted), else the ms to wait before the next one may be; rejects when the
   * count cannot be read (the callers answer 503, never a success).
   */
  take(scope: string, subject: string, limit: RateLimit): Promise<number>;
}

/** Options of {@link inProcessRateLimitStore}. */
export interface InProcessRateLimitStoreOptions {
  /** Default `Date.now`; tests move it instead of sleeping. */
  readonly clock?: Clock;
  /** Subjects remembered per scope at most (the least recently seen is forgotten past it). Default 100 000. */
  readonly maxSubjects?: number;
}

/**
 * The default {@link RateLimitStore}: counts in this process, with the generic cell rate algorithm
 * (up to `max` at once, then one more every `windowMs / max`), memory bounded per scope. With
 * several server instances each counts alone, so every limit is that many times looser: use
 * `PostgresRateLimitStore` there.
 *
 * @example
 * ```ts
 * import { createKeyManager, inProcessRateLimitStore, MemoryKeyStore } from '@drops/auth';
 *
 * const keys = createKeyManager({ keyStore: new MemoryKeyStore(), rateLimitStore: inProcessRateLimitStore() });
 * ```
 */
export function inProcessRateLimitStore(options: InProcessRateLimitStoreOptions = {}): RateLimitStore {
  const clock = options.clock ?? systemClock;
  const limiters = new Map<string, RateLimiter>();
  return {
    take(scope, subject, limit) {
      const key = `${scope}\u0000${limit.max}\u0000${limit.windowMs}`;
      let limiter = limiters.get(key);
      if (limiter === undefined) {
        limiter = new RateLimiter({ ...limit, ...(options.maxSubjects !== undefined ? { maxSubjects: options.maxSubjects } : {}) });
        limiters.set(key, limiter);
      }
      return Promise.resolve(limiter.take(subject, clock()));
    },
  };
}

/**
 * Takes one action from `store`: the ms to wait (0 = allowed), or an `UnavailableError` (503,
 * dependency `rate_limit_store`) when the store cannot answer.
 * @internal
 */
export async function takeOrUnavailable(store: RateLimitStore, scope: string, subject: string, limit: RateLimit): Promise<number> {
  try {
    return await store.take(scope, subject, limit);
  } catch (cause) {
    throw new UnavailableError('rate_limit_store', { cause });
  }
}

/** Whether `value` has a `take` function: what the options schemas accept as a store. @internal */
export function isRateLimitStore(value: unknown): value is RateLimitStore {
  return typeof (value as Partial<RateLimitStore> | null)?.take === 'function';
}
