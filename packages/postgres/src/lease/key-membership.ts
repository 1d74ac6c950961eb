/**
 * The ids of every active key, held compactly so an unknown or revoked id is answered in memory
 * (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md#membership). Ids are
 * SHA-256 hex, uniformly random: the structure keeps each id's first 32 bits, sorted, in one
 * `Uint32Array` (4 bytes per key), as a multiset (two keys may share a prefix). An id whose prefix
 * is absent is certainly not active; one whose prefix is present may be (the database decides):
 * with n active keys a random id is a false positive with probability about n / 2^32.
 *
 * Changes since the last merge sit in two small maps (prefix -> count) and are merged into a new
 * sorted array once they reach a 32nd of it, so a mint or a revocation is O(1) and a lookup is a
 * binary search plus two map reads.
 * @internal
 */
export class KeyMembership {
  #sorted: Uint32Array;
  /** Prefixes added since the merge, with their counts. */
  #added = new Map<number, number>();
  /** Prefixes of `#sorted` removed since the merge, with their counts. */
  #removed = new Map<number, number>();

  /** `prefixes`: the 32-bit prefixes of every active id, in any order (sorted here, in place). */
  constructor(prefixes: Uint32Array) {
    this.#sorted = prefixes.sort();
  }

  /** Ids held. */
  get size(): number {
    let size = this.#sorted.length;
    for (const n of this.#added.values()) size += n;
    for (const n of this.#removed.values()) size -= n;
    return size;
  }

  /** Bytes of the structure (the typed array and an estimate of the pending maps). */
  get bytes(): number {
    return this.#sorted.byteLength + (this.#added.size + this.#removed.size) * 40;
  }

  /** False: `id` is certainly not an active key. True: it may be (ask the database). */
  mayContain(id: string): boolean {
    const prefix = prefixOf(id);
    if (prefix < 0) return true;
    if (this.#added.has(prefix)) return true;
    const removed = this.#removed.get(prefix) ?? 0;
    if (removed === 0) return this.#sorted[lowerBound(this.#sorted, prefix)] === prefix;
    return countIn(this.#sorted, prefix) > removed;
  }

  /** A key became active. */
  add(id: string): void {
    const prefix = prefixOf(id);
    if (prefix < 0) return;
    this.#added.set(prefix, (this.#added.get(prefix) ?? 0) + 1);
    this.#mergeIfDue();
  }

  /** A key stopped being active (revoked, deleted, its id changed). */
  remove(id: string): void {
    const prefix = prefixOf(id);
    if (prefix < 0) return;
    const added = this.#added.get(prefix) ?? 0;
    if (added > 0) {
      if (added === 1) this.#added.delete(prefix);
      else this.#added.set(prefix, added - 1);
      return;
    }
    const removed = this.#removed.get(prefix) ?? 0;
    // Only what is held can go (the announcements are applied in revision order, so this holds).
    if (countIn(this.#sorted, prefix) <= removed) return;
    this.#removed.set(prefix, removed + 1);
    this.#mergeIfDue();
  }

  /** Every key went (the table was truncated). */
  clear(): void {
    this.#sorted = new Uint32Array(0);
    this.#added = new Map();
    this.#removed = new Map();
  }

  #mergeIfDue(): void {
    if (this.#added.size + this.#removed.size > Math.max(1024, this.#sorted.length / 32)) this.merge();
  }

  /** Folds the pending changes into a new sorted array: O(n), done once a 32nd of n has changed. */
  merge(): void {
    const added = Uint32Array.from(expand(this.#added)).sort();
    const removed = this.#removed;
    const out = new Uint32Array(this.size);
    let o = 0;
    let a = 0;
    for (const prefix of this.#sorted) {
      const skip = removed.get(prefix) ?? 0;
      if (skip > 0) {
        removed.set(prefix, skip - 1);
        continue;
      }
      while (a < added.length && added[a]! < prefix) out[o++] = added[a++]!;
      out[o++] = prefix;
    }
    while (a < added.length) out[o++] = added[a++]!;
    this.#sorted = out;
    this.#added = new Map();
    this.#removed = new Map();
  }
}

function* expand(counts: Map<number, number>): Generator<number> {
  for (const [prefix, n] of counts) for (let i = 0; i < n; i++) yield prefix;
}

/** The id's first 32 bits (8 hex digits), or -1 if they are not lowercase hex. @internal */
export function prefixOf(id: string): number {
  if (id.length < 8) return -1;
  let value = 0;
  for (let i = 0; i < 8; i++) {
    const c = id.charCodeAt(i);
    const digit = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

function lowerBound(sorted: Uint32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function countIn(sorted: Uint32Array, value: number): number {
  let n = 0;
  for (let i = lowerBound(sorted, value); i < sorted.length && sorted[i] === value; i++) n++;
  return n;
}
