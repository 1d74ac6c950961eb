/** Accounts a {@link MintRateLimiter} remembers at most; past it the least recently seen is forgotten. */
export const MAX_RATE_LIMITED_ACCOUNTS = 100_000;

/**
 * Limits how often one account mints keys, in this process: up to `max` mints at once, then one
 * more every `windowMs / max` (the generic cell rate algorithm, a token bucket of `max` refilled
 * at `max` per `windowMs`). One number per account; accounts are kept in a `Map` in the order
 * they were last seen, so forgetting the least recent one is O(1) and memory stays bounded at
 * `maxAccounts` (an account forgotten while still limited starts afresh: only possible when more
 * than that many accounts mint within one window).
 *
 * The clock is passed in, so tests move time instead of sleeping.
 * @internal
 */
export class MintRateLimiter {
  readonly #windowMs: number;
  /** Time one mint "costs": the bucket refills one mint per interval. */
  readonly #intervalMs: number;
  readonly #maxAccounts: number;
  /** Account -> theoretical arrival time (ms): when its bucket is full again. */
  readonly #fullAt = new Map<string, number>();

  constructor(options: { max: number; windowMs: number; maxAccounts?: number }) {
    this.#windowMs = options.windowMs;
    this.#intervalMs = options.windowMs / options.max;
    this.#maxAccounts = options.maxAccounts ?? MAX_RATE_LIMITED_ACCOUNTS;
  }

  /**
   * Takes one mint for the account at `now` (ms). Returns 0 when allowed (and counted), else the
   * ms to wait until the next mint is allowed (nothing is counted).
   */
  take(accountId: string, now: number): number {
    const fullAt = Math.max(this.#fullAt.get(accountId) ?? now, now);
    const allowedAt = fullAt - (this.#windowMs - this.#intervalMs);
    if (now < allowedAt) return allowedAt - now;
    // Delete, then set: the Map's order stays "least recently seen first".
    this.#fullAt.delete(accountId);
    this.#fullAt.set(accountId, fullAt + this.#intervalMs);
    this.#forgetOne(now);
    return 0;
  }

  /** Active accounts remembered now. */
  get size(): number {
    return this.#fullAt.size;
  }

  /** Drops the least recently seen account if its bucket is full again, or if there are too many. O(1). */
  #forgetOne(now: number): void {
    const oldest = this.#fullAt.entries().next();
    if (oldest.done === true) return;
    const [accountId, fullAt] = oldest.value;
    if (fullAt <= now || this.#fullAt.size > this.#maxAccounts) this.#fullAt.delete(accountId);
  }
}
