/**
 * A `Map<string, number>` bounded to the `capacity` most recently set keys, with O(1) `get`, `set`
 * and eviction. Internal: the last-used throttle and the rate limiter use it.
 *
 * Why not a plain `Map` in insertion order, deleting `keys().next()`: V8 leaves a hole for every
 * deleted entry until the table is rebuilt, and an iterator starts from the first slot, so taking
 * "the oldest" after many deletes walks all the holes: O(n) per call. Here the order lives in a
 * ring of `(key, value)` slots beside the map; a slot evicts its key only if the map still holds
 * that very value (a key set again since has a newer slot, which keeps it).
 * @internal
 */
export class RecentMap {
  readonly #capacity: number;
  readonly #values = new Map<string, number>();
  // The ring: slots [start, start + count) modulo capacity, oldest first. Grown by appending
  // until it first wraps, so an idle map costs no preallocated memory.
  readonly #keys: (string | undefined)[] = [];
  readonly #stamps: number[] = [];
  #start = 0;
  #count = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get(key: string): number | undefined {
    return this.#values.get(key);
  }

  /** Keys held now (at most `capacity`). */
  get size(): number {
    return this.#values.size;
  }

  /** Sets `key` to `value` as the most recent; evicts the oldest slot when the ring is full. */
  set(key: string, value: number): void {
    if (this.#count === this.#capacity) this.#evictOldest();
    const at = (this.#start + this.#count) % this.#capacity;
    if (at === this.#keys.length) {
      this.#keys.push(key);
      this.#stamps.push(value);
    } else {
      this.#keys[at] = key;
      this.#stamps[at] = value;
    }
    this.#count++;
    this.#values.set(key, value);
  }

  /** Evicts the oldest slot if `isStale(its value)`: one look, O(1). Call it once per write to let a quiet map shrink. */
  evictOldestIf(isStale: (value: number) => boolean): void {
    if (this.#count > 0 && isStale(this.#stamps[this.#start]!)) this.#evictOldest();
  }

  #evictOldest(): void {
    const key = this.#keys[this.#start]!;
    if (this.#values.get(key) === this.#stamps[this.#start]) this.#values.delete(key);
    this.#keys[this.#start] = undefined;
    this.#start = (this.#start + 1) % this.#capacity;
    this.#count--;
  }
}
