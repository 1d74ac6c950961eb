import { RecentMap } from '../recent-map.js';

/** Accounts a {@link MintRateLimiter} remembers at most; past it the least recently seen is forgotten. */
export const MAX_RATE_LIMITED_ACCOUNTS = 100_000;

/**
 * Limits how often one account mints keys, in this process: up to `max` mints at once, then one
 * more every `windowMs / max` (the generic cell rate algorithm, a token bucket of `max` refilled
 * at `max` per `windowMs`). One number per account, kept in the order accounts were last seen, so
 * forgetting the least recent one is O(1) and memory stays bounded at `maxAccounts` (an account
 * forgotten while still limited starts afresh: only possible when more than that many accounts
 * mint within one window).
 *
 * The clock is passed in, so tests move time instead of sleeping.
 * @internal
 */
export class MintRateLimiter {
  readonly #windowMs: number;
  /** Time one mint "costs": the bucket refills one mint per interval. */
  readonly #intervalMs: number;
  /** Account -> theoretical arrival time (ms): when its bucket is full again. */
  readonly #fullAt: RecentMap;

  constructor(options: { max: number; windowMs: number; maxAccounts?: number }) {
    this.#windowMs = options.windowMs;
    this.#intervalMs = options.windowMs / options.max;
    this.#fullAt = new RecentMap(options.maxAccounts ?? MAX_RATE_LIMITED_ACCOUNTS);
  }

  /**
   * Takes one mint for the account at `now` (ms). Returns 0 when allowed (and counted), else the
   * ms to wait until the next mint is allowed (nothing is counted).
   */
  take(accountId: string, now: number): number {
    const fullAt = Math.max(this.#fullAt.get(accountId) ?? now, now);
    const allowedAt = fullAt - (this.#windowMs - this.#intervalMs);
    if (now < allowedAt) return allowedAt - now;
    this.#fullAt.set(accountId, fullAt + this.#intervalMs);
    // An account whose bucket is full again is the same as one never seen: forget it.
    this.#fullAt.evictOldestIf((oldestFullAt) => oldestFullAt <= now);
    return 0;
  }

  /** Active accounts remembered now. */
  get size(): number {
    return this.#fullAt.size;
  }
}
