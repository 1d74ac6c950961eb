import {
  compareAt,
  copyAt,
  countIn,
  FINGERPRINT_WORDS,
  fingerprintKey,
  fingerprintsOf,
  lowerBound,
  sortFingerprints,
  writeFingerprint,
} from './id-fingerprints.js';

/**
 * The ids of every active key, held compactly so an unknown or revoked id is answered in memory
 * (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md#membership-every-active-id-in-memory). Ids are
 * SHA-256 hex: the structure keeps each id's first 96 bits (its fingerprint, `id-fingerprints.ts`),
 * sorted, in one `Uint32Array` (12 bytes per key), as a multiset (two keys may share one). An id
 * whose fingerprint is absent is certainly not active; one whose fingerprint is present may be
 * (the database decides): a random id is a false positive with probability about n / 2^96, and one
 * crafted to match a public id's fingerprint is out of reach.
 *
 * Changes since the last merge sit in two small maps (fingerprint -> count) and are merged into a
 * new sorted array once they reach a 32nd of it, so a mint or a revocation is O(1) and a lookup is
 * a binary search plus two map reads.
 * @internal
 */
export class KeyMembership {
  #sorted: Uint32Array;
  /** Fingerprints added since the merge, with their counts. */
  #added = new Map<string, number>();
  /** Fingerprints of `#sorted` removed since the merge, with their counts. */
  #removed = new Map<string, number>();
  /**
   * The first words of the fingerprints in `#added` and `#removed`, with their counts: a lookup
   * whose first word is not here (about every one, n / 2^32 aside) skips the two maps, so it
   * makes no string and hashes none.
   */
  #pendingFirstWords = new Map<number, number>();
  /** The fingerprint being looked up (no allocation per lookup). */
  readonly #probe = new Uint32Array(FINGERPRINT_WORDS);

  /** `fingerprints`: {@link FINGERPRINT_WORDS} words per active id, in any order (sorted here). */
  constructor(fingerprints: Uint32Array) {
    this.#sorted = sortFingerprints(fingerprints);
  }

  /** The membership of `ids` (ids that are not lowercase hex are left out). */
  static of(ids: Iterable<string>): KeyMembership {
    const all = [...ids];
    const fingerprints = new Uint32Array(all.length * FINGERPRINT_WORDS);
    let at = 0;
    for (const id of all) if (writeFingerprint(id, fingerprints, at)) at += FINGERPRINT_WORDS;
    return new KeyMembership(fingerprints.subarray(0, at));
  }

  /** Ids held. */
  get size(): number {
    let size = this.#sorted.length / FINGERPRINT_WORDS;
    for (const n of this.#added.values()) size += n;
    for (const n of this.#removed.values()) size -= n;
    return size;
  }

  /** Bytes of the structure (the typed array and an estimate of the pending maps). */
  get bytes(): number {
    return this.#sorted.byteLength + (this.#added.size + this.#removed.size) * 80;
  }

  /** False: `id` is certainly not an active key. True: it may be (ask the database). */
  mayContain(id: string): boolean {
    // The whole fingerprint is read for every id, and searched in one pass: no shorter path for an
    // id that shares only a held id's first bits, which a near miss could be timed on. The pending
    // changes are looked at only for an id sharing one's first word, as the search compares the
    // other words only on a tie of the first.
    if (!writeFingerprint(id, this.#probe, 0)) return true;
    if (this.#pendingFirstWords.size > 0 && this.#pendingFirstWords.has(this.#probe[0]! | 0)) {
      const key = fingerprintKey(id);
      if (this.#added.has(key)) return true;
      const removed = this.#removed.get(key) ?? 0;
      if (removed > 0) return countIn(this.#sorted, this.#probe) > removed;
    }
    const at = lowerBound(this.#sorted, this.#probe);
    return at < this.#sorted.length && compareAt(this.#sorted, at, this.#probe, 0) === 0;
  }

  /** Counts one more (`by` 1) or one less (`by` -1) pending change with the probe's first word. */
  #pending(by: 1 | -1): void {
    const word = this.#probe[0]! | 0;
    const n = (this.#pendingFirstWords.get(word) ?? 0) + by;
    if (n === 0) this.#pendingFirstWords.delete(word);
    else this.#pendingFirstWords.set(word, n);
  }

  /** A key became active. */
  add(id: string): void {
    if (!writeFingerprint(id, this.#probe, 0)) return;
    const key = fingerprintKey(id);
    this.#added.set(key, (this.#added.get(key) ?? 0) + 1);
    this.#pending(1);
    this.#mergeIfDue();
  }

  /** A key stopped being active (revoked, deleted, its id changed). */
  remove(id: string): void {
    if (!writeFingerprint(id, this.#probe, 0)) return;
    const key = fingerprintKey(id);
    const added = this.#added.get(key) ?? 0;
    if (added > 0) {
      if (added === 1) this.#added.delete(key);
      else this.#added.set(key, added - 1);
      this.#pending(-1);
      return;
    }
    const removed = this.#removed.get(key) ?? 0;
    // Only what is held can go (the announcements are applied in revision order, so this holds).
    if (countIn(this.#sorted, this.#probe) <= removed) return;
    this.#removed.set(key, removed + 1);
    this.#pending(1);
    this.#mergeIfDue();
  }

  /** Every key went (the table was truncated). */
  clear(): void {
    this.#sorted = new Uint32Array(0);
    this.#added = new Map();
    this.#removed = new Map();
    this.#pendingFirstWords = new Map();
  }

  #mergeIfDue(): void {
    const held = this.#sorted.length / FINGERPRINT_WORDS;
    if (this.#added.size + this.#removed.size > Math.max(1024, held / 32)) this.merge();
  }

  /** Folds the pending changes into a new sorted array: O(n), done once a 32nd of n has changed. */
  merge(): void {
    const sorted = this.#sorted;
    const added = sortFingerprints(fingerprintsOf(this.#added));
    const removed = sortFingerprints(fingerprintsOf(this.#removed));
    const out = new Uint32Array(this.size * FINGERPRINT_WORDS);
    let o = 0;
    let a = 0;
    let r = 0;
    for (let s = 0; s < sorted.length; s += FINGERPRINT_WORDS) {
      if (r < removed.length && compareAt(removed, r, sorted, s) === 0) {
        r += FINGERPRINT_WORDS;
        continue;
      }
      for (; a < added.length && compareAt(added, a, sorted, s) < 0; a += FINGERPRINT_WORDS, o += FINGERPRINT_WORDS)
        copyAt(added, a, out, o);
      copyAt(sorted, s, out, o);
      o += FINGERPRINT_WORDS;
    }
    out.set(added.subarray(a), o);
    this.#sorted = out;
    this.#added = new Map();
    this.#removed = new Map();
    this.#pendingFirstWords = new Map();
  }
}
