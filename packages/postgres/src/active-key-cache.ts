import type { ActiveKey } from '@drops/auth';
import { RecentMap } from '@drops/auth/internal';

/**
 * Active keys read from an in-process database (PGlite), kept so a key that authenticated once
 * costs a map lookup instead of a query. Only for a database this process alone can change: every
 * revoke goes through a store of this process, which drops the key here before and after it
 * commits, so no entry outlives a revoke.
 *
 * Only found keys are kept: an unknown or a revoked id always takes the query, so the two still
 * take the same path and the same time. A read that was in flight while any revoke ran is not
 * kept (the generation moved), so a lookup racing a revoke cannot put the key back. Full, it
 * forgets the key remembered longest ago (a hit does not count as a use), in O(1). On a shared
 * database, `CoherentKeyCache` keeps its keys in one of these and answers only under a lease.
 */
export class ActiveKeyCache {
  readonly #keys: RecentMap<ActiveKey>;
  #generation = 0;

  constructor(capacity: number) {
    this.#keys = new RecentMap(capacity);
  }

  /** Keys held now. */
  get size(): number {
    return this.#keys.size;
  }

  /** Changes whenever a key is dropped; take it before a read, hand it back to {@link remember}. */
  get generation(): number {
    return this.#generation;
  }

  get(id: string): ActiveKey | undefined {
    return this.#keys.get(id);
  }

  /** Keeps a key read at `generation`, unless a key was dropped since. */
  remember(key: ActiveKey, generation: number): void {
    if (generation !== this.#generation) return;
    this.#keys.set(key.id, key);
  }

  /** Drops a key (a revoke is under way or done) and invalidates reads in flight. */
  drop(id: string): void {
    this.#generation++;
    this.#keys.delete(id);
  }

  /** Drops everything (the database failed or closed). */
  clear(): void {
    this.#generation++;
    this.#keys.clear();
  }
}

const caches = new WeakMap<object, ActiveKeyCache>();

/** The one cache of an in-process engine, shared by every store over it. */
export function activeKeyCacheOf(engine: object, capacity: number): ActiveKeyCache {
  let cache = caches.get(engine);
  if (cache === undefined) {
    cache = new ActiveKeyCache(capacity);
    caches.set(engine, cache);
  }
  return cache;
}
