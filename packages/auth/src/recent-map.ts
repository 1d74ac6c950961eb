/** One key's place in the order, from the oldest to the most recent. */
class Entry<V> {
  key: string;
  value: V;
  older: Entry<V> | undefined = undefined;
  newer: Entry<V> | undefined = undefined;

  constructor(key: string, value: V) {
    this.key = key;
    this.value = value;
  }
}

/**
 * A `Map<string, V>` bounded to `capacity` keys, with O(1) `get`, `set`, `delete` and eviction of
 * the oldest key when full. "Oldest" is the key least recently set, or least recently read through
 * {@link getAndMarkRecent} (plain {@link get} leaves the order alone), so a caller picks
 * first-in-first-out or least-recently-used per read. Internal: the verified-token cache, the
 * active-key caches of @drops/auth-postgres, the last-used throttle and the rate limiter use it.
 *
 * Why not a plain `Map` in insertion order, deleting `keys().next()`: V8 leaves a hole for every
 * deleted entry until the table is rebuilt, and an iterator starts from the first slot, so taking
 * "the oldest" from a full map under churn walks all the holes: O(capacity) per insert (a full
 * cache of 10 000 ran at 0.05× a bare `Map.set`; "bounded caches" in
 * https://github.com/drops-dev/drops-auth/blob/main/docs/benchmarks.md). Here the order is
 * a doubly linked list through the entries beside the map.
 * @internal
 */
export class RecentMap<V> {
  readonly #capacity: number;
  readonly #entries = new Map<string, Entry<V>>();
  #oldest: Entry<V> | undefined = undefined;
  #newest: Entry<V> | undefined = undefined;

  /** `capacity` 0 keeps nothing. */
  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Keys held now (at most `capacity`). */
  get size(): number {
    return this.#entries.size;
  }

  /** The value of `key`; its place in the order stays as it is. */
  get(key: string): V | undefined {
    return this.#entries.get(key)?.value;
  }

  /** The value of `key`, which becomes the most recent (least-recently-used eviction). */
  getAndMarkRecent(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#unlink(entry);
    this.#append(entry);
    return entry.value;
  }

  /** Sets `key` to `value` as the most recent; evicts the oldest key if that makes one too many. */
  set(key: string, value: V): void {
    let entry = this.#entries.get(key);
    if (entry !== undefined) {
      entry.value = value;
      this.#unlink(entry);
    } else if (this.#entries.size < this.#capacity) {
      entry = new Entry(key, value);
      this.#entries.set(key, entry);
    } else if (this.#oldest !== undefined) {
      // Full: the oldest entry leaves, and its object carries the new key (no garbage per insert).
      entry = this.#oldest;
      this.#entries.delete(entry.key);
      this.#unlink(entry);
      entry.key = key;
      entry.value = value;
      this.#entries.set(key, entry);
    } else {
      return; // capacity 0
    }
    this.#append(entry);
  }

  /** Forgets `key`; true if it was held. */
  delete(key: string): boolean {
    const entry = this.#entries.get(key);
    if (entry === undefined) return false;
    this.#entries.delete(key);
    this.#unlink(entry);
    return true;
  }

  /** Forgets every key. */
  clear(): void {
    this.#entries.clear();
    this.#oldest = undefined;
    this.#newest = undefined;
  }

  /** Evicts the oldest key if `isStale(its value)`: one look, O(1). Call it once per write to let a quiet map shrink. */
  evictOldestIf(isStale: (value: V) => boolean): void {
    const oldest = this.#oldest;
    if (oldest !== undefined && isStale(oldest.value)) this.delete(oldest.key);
  }

  #unlink(entry: Entry<V>): void {
    if (entry.older === undefined) this.#oldest = entry.newer;
    else entry.older.newer = entry.newer;
    if (entry.newer === undefined) this.#newest = entry.older;
    else entry.newer.older = entry.older;
    entry.older = undefined;
    entry.newer = undefined;
  }

  #append(entry: Entry<V>): void {
    entry.older = this.#newest;
    if (this.#newest === undefined) this.#oldest = entry;
    else this.#newest.newer = entry;
    this.#newest = entry;
  }
}
