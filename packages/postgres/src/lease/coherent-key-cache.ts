import type { ActiveKey } from '@drops/auth';
import { ActiveKeyCache } from '../active-key-cache.js';

/**
 * Active keys kept in memory under a lease (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md): a key answers from here only
 * while the monotonic clock is before the lease's local deadline. Past it the cache lapses: it
 * empties and every lookup goes to the database until a new lease is granted.
 *
 * A lookup takes {@link generation} before its query and hands it back to {@link remember}; the
 * key is kept only if nothing was dropped, no lease lapsed or began since, and the lease is valid
 * now. So a read that raced a revocation, or one sent outside a lease, never puts a key back.
 * The keys themselves, the generation and eviction are an {@link ActiveKeyCache}'s; this adds the
 * lease.
 * @internal
 */
export class CoherentKeyCache {
  readonly #keys: ActiveKeyCache;
  readonly #now: () => number;
  #deadline = Number.NEGATIVE_INFINITY;

  constructor(capacity: number, monotonicNow: () => number) {
    this.#keys = new ActiveKeyCache(capacity);
    this.#now = monotonicNow;
  }

  get generation(): number {
    return this.#keys.generation;
  }

  /** Whether the lease is valid now. */
  get valid(): boolean {
    return this.#now() < this.#deadline;
  }

  /** The key, if kept and the lease is valid; a lapsed lease empties the cache. */
  get(id: string): ActiveKey | undefined {
    if (this.#keys.size === 0) return undefined;
    if (this.#now() >= this.#deadline) {
      this.lapse();
      return undefined;
    }
    return this.#keys.get(id);
  }

  remember(key: ActiveKey, generation: number): void {
    if (this.#now() >= this.#deadline) return;
    this.#keys.remember(key, generation);
  }

  /** A revocation of `id` was announced (or is under way here): drop it, invalidate reads in flight. */
  drop(id: string): void {
    this.#keys.drop(id);
  }

  /** Every key went at once (the table was truncated): drop them all, invalidate reads in flight; the lease holds. */
  dropAll(): void {
    this.#keys.clear();
  }

  /** The lease is lost (session failed, deadline passed, store closing): empty, answer nothing. */
  lapse(): void {
    this.#deadline = Number.NEGATIVE_INFINITY;
    this.#keys.clear();
  }

  /**
   * A renewal sent when the lease was valid succeeded: the lease goes on until `deadline`. If it
   * lapsed meanwhile (the answer came late), this is a new lease: nothing from before is kept.
   */
  renewed(deadline: number): void {
    if (this.#now() >= this.#deadline) {
      this.lapse();
    }
    this.#deadline = Math.max(this.#deadline, deadline);
  }

  /** A new lease (a new session): nothing read before it is kept. */
  granted(deadline: number): void {
    this.lapse();
    this.#deadline = deadline;
  }
}
