import * as z from 'zod/mini';
import { lazySchema } from '../options/parse-options.js';
import { RecentMap } from '../recent-map.js';

/** How often one subject (an account, a client IP) may do something: up to `max` at once, refilled at `max` per `windowMs`. */
export interface RateLimit {
  readonly max: number;
  readonly windowMs: number;
}

/** Subjects a {@link RateLimiter} remembers at most; past it the least recently seen is forgotten. */
export const MAX_RATE_LIMITED_SUBJECTS = 100_000;

/**
 * The schema of a rate limit option, `{ max, windowMs }` (positive integers) or `false` (off),
 * for the factories that take one (`mintRateLimit`, `revokeRateLimit`).
 * @internal
 */
export const rateLimitOptionSchema = /* @__PURE__ */ lazySchema(() =>
  z.union([z.literal(false), z.strictObject({ max: z.int().check(z.positive()), windowMs: z.int().check(z.positive()) })]),
);

/**
 * Limits how often one subject (an account minting keys, a client IP revoking by value) acts, in
 * this process: up to `max` at once, then one more every `windowMs / max` (the generic cell rate
 * algorithm, a token bucket of `max` refilled at `max` per `windowMs`). One number per subject,
 * kept in the order subjects were last seen, so forgetting the least recent one is O(1) and memory
 * stays bounded at `maxSubjects` (a subject forgotten while still limited starts afresh: only
 * possible when more than that many subjects act within one window).
 *
 * The clock is passed in, so tests move time instead of sleeping.
 * @internal
 */
export class RateLimiter {
  readonly #windowMs: number;
  /** Time one action "costs": the bucket refills one action per interval. */
  readonly #intervalMs: number;
  /** Subject -> theoretical arrival time (ms): when its bucket is full again. */
  readonly #fullAt: RecentMap<number>;

  constructor(options: RateLimit & { maxSubjects?: number }) {
    this.#windowMs = options.windowMs;
    this.#intervalMs = options.windowMs / options.max;
    this.#fullAt = new RecentMap<number>(options.maxSubjects ?? MAX_RATE_LIMITED_SUBJECTS);
  }

  /**
   * Takes one action for `subject` at `now` (ms). Returns 0 when allowed (and counted), else the
   * ms to wait until the next one is allowed (nothing is counted).
   */
  take(subject: string, now: number): number {
    const fullAt = Math.max(this.#fullAt.get(subject) ?? now, now);
    const allowedAt = fullAt - (this.#windowMs - this.#intervalMs);
    if (now < allowedAt) return allowedAt - now;
    this.#fullAt.set(subject, fullAt + this.#intervalMs);
    // A subject whose bucket is full again is the same as one never seen: forget it.
    this.#fullAt.evictOldestIf((oldestFullAt) => oldestFullAt <= now);
    return 0;
  }

  /** Subjects remembered now (those still limited, at most `maxSubjects`). */
  get size(): number {
    return this.#fullAt.size;
  }
}
