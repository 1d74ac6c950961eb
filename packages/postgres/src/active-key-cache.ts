import type { ActiveKey } from '@drops/auth';
import { RecentMap } from '@drops/auth/internal';

/**
 * Active keys read from the database, kept so a key that authenticated once costs a map lookup
 * instead of a query: the kept keys of a `CoherentKeyCache`, which answers from them under a lease
 * on PostgreSQL and for good on PGlite (one process is the database's only client).
 *
 * Only found keys are kept: unknown and revoked ids are answered by the membership of active ids,
 * where the two are equally absent. A read that was in flight while any key was dropped is not
 * kept (the generation moved), so a lookup racing a revoke cannot put the key back. Full, it
 * forgets the key remembered longest ago (a hit does not count as a use), in O(1).
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
