/**
 * An id's fingerprint in the membership: its first 96 bits, as {@link FINGERPRINT_WORDS} 32-bit
 * words, kept in flat `Uint32Array`s sorted word by word.
 *
 * Why 96 bits: ids are public (listings, logs, `DELETE /keys/<id>`), and a fingerprint the
 * membership holds costs a query. With b bits, a secret whose id shares the fingerprint of one of
 * n active ids takes 2^b / n SHA-256 evaluations to find: at 32 bits a laptop found one in
 * minutes, and its requests reached the database and timed differently while the key was live.
 * At 96 bits it takes 2^76 evaluations against a million keys, out of any attacker's reach, so a
 * forged secret is answered from memory like a random one.
 * @internal
 */
export const FINGERPRINT_WORDS = 3;

const HEX_DIGITS = FINGERPRINT_WORDS * 8;

/** The part of `id` its fingerprint covers, as a map key. @internal */
export function fingerprintKey(id: string): string {
  return id.slice(0, HEX_DIGITS);
}

/** Writes `id`'s fingerprint at `into[at…]`; false if it does not start with 24 lowercase hex digits. @internal */
export function writeFingerprint(id: string, into: Uint32Array, at: number): boolean {
  for (let w = 0; w < FINGERPRINT_WORDS; w++) {
    const word = wordOf(id, w);
    if (word < 0) return false;
    into[at + w] = word;
  }
  return true;
}

/** Word `w` of `id`'s fingerprint (hex digits 8w to 8w + 7), or -1 if they are not lowercase hex. */
function wordOf(id: string, w: number): number {
  if (id.length < w * 8 + 8) return -1;
  let value = 0;
  for (let i = w * 8; i < w * 8 + 8; i++) {
    const c = id.charCodeAt(i);
    const digit = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** Fingerprints of `keys` ({@link fingerprintKey}s), each repeated as often as its count. @internal */
export function fingerprintsOf(keys: Map<string, number>): Uint32Array {
  let n = 0;
  for (const count of keys.values()) n += count;
  const out = new Uint32Array(n * FINGERPRINT_WORDS);
  let at = 0;
  for (const [key, count] of keys) {
    for (let i = 0; i < count; i++, at += FINGERPRINT_WORDS) writeFingerprint(key, out, at);
  }
  return out;
}

/** Orders the fingerprint at `a[i…]` against the one at `b[j…]` (word offsets). @internal */
export function compareAt(a: Uint32Array, i: number, b: Uint32Array, j: number): number {
  for (let w = 0; w < FINGERPRINT_WORDS; w++) {
    if (a[i + w] !== b[j + w]) return a[i + w]! < b[j + w]! ? -1 : 1;
  }
  return 0;
}

/** The word offset of the first fingerprint in `sorted` not below `key[0…]`. @internal */
export function lowerBound(sorted: Uint32Array, key: Uint32Array): number {
  const first = key[0]!;
  let lo = 0;
  let hi = sorted.length / FINGERPRINT_WORDS;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    // The first word almost always decides: compare the rest only when it ties.
    const word = sorted[mid * FINGERPRINT_WORDS]!;
    if (word < first || (word === first && compareAt(sorted, mid * FINGERPRINT_WORDS, key, 0) < 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo * FINGERPRINT_WORDS;
}

/** How many times `sorted` holds `key[0…]`. @internal */
export function countIn(sorted: Uint32Array, key: Uint32Array): number {
  let n = 0;
  for (let at = lowerBound(sorted, key); at < sorted.length && compareAt(sorted, at, key, 0) === 0; at += FINGERPRINT_WORDS) n++;
  return n;
}

/** Copies the fingerprint at `from[i…]` to `to[j…]`. @internal */
export function copyAt(from: Uint32Array, i: number, to: Uint32Array, j: number): void {
  for (let w = 0; w < FINGERPRINT_WORDS; w++) to[j + w] = from[i + w]!;
}

/**
 * `fingerprints` sorted: itself when it already is (a build reads ids in index order), else a
 * sorted copy. A comparator sort is about ten times slower than a typed array's own, so the copy
 * is ordered by a native 64-bit sort of (first word, position) pairs, and only runs that share a
 * first word (about n² / 2³³ pairs) are finished by comparing whole fingerprints.
 * @internal
 */
export function sortFingerprints(fingerprints: Uint32Array): Uint32Array {
  if (isSorted(fingerprints)) return fingerprints;
  const n = fingerprints.length / FINGERPRINT_WORDS;
  const pairs = new BigUint64Array(n);
  const halves = new Uint32Array(pairs.buffer);
  for (let i = 0; i < n; i++) {
    halves[2 * i + HIGH] = fingerprints[i * FINGERPRINT_WORDS]!;
    halves[2 * i + LOW] = i;
  }
  pairs.sort();
  const out = new Uint32Array(fingerprints.length);
  for (let i = 0; i < n; i++) copyAt(fingerprints, halves[2 * i + LOW]! * FINGERPRINT_WORDS, out, i * FINGERPRINT_WORDS);
  sortRunsOfEqualFirstWords(out);
  return out;
}

/** Where a 64-bit element keeps its high and low 32-bit halves in memory. */
const HIGH = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1 ? 1 : 0;
const LOW = 1 - HIGH;

function isSorted(fingerprints: Uint32Array): boolean {
  for (let at = FINGERPRINT_WORDS; at < fingerprints.length; at += FINGERPRINT_WORDS) {
    if (compareAt(fingerprints, at - FINGERPRINT_WORDS, fingerprints, at) > 0) return false;
  }
  return true;
}

/** Insertion sort within each run of fingerprints sharing their first word (runs are a few long). */
function sortRunsOfEqualFirstWords(sorted: Uint32Array): void {
  const held = new Uint32Array(FINGERPRINT_WORDS);
  for (let at = FINGERPRINT_WORDS; at < sorted.length; at += FINGERPRINT_WORDS) {
    if (sorted[at] !== sorted[at - FINGERPRINT_WORDS] || compareAt(sorted, at - FINGERPRINT_WORDS, sorted, at) <= 0) continue;
    copyAt(sorted, at, held, 0);
    let to = at;
    while (to > 0 && compareAt(sorted, to - FINGERPRINT_WORDS, held, 0) > 0) {
      copyAt(sorted, to - FINGERPRINT_WORDS, sorted, to);
      to -= FINGERPRINT_WORDS;
    }
    copyAt(held, 0, sorted, to);
  }
}
