// The membership structure alone (docs/revocation.md, "Membership") at N keys (default 10M), without
// a database: bytes per key, the sort of a build, random lookups, adds with their merges.
//   node --expose-gc --import tsx bench/membership-structure.ts
import { createHash, randomBytes } from 'node:crypto';
import { FINGERPRINT_WORDS } from '../packages/postgres/src/lease/id-fingerprints.ts';
import { KeyMembership } from '../packages/postgres/src/lease/key-membership.ts';
const N = Number(process.env.N ?? 10_000_000);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const seed = randomBytes(32);
const fingerprints = new Uint32Array(N * FINGERPRINT_WORDS);
for (let i = 0; i < N; i++) {
  const digest = createHash('sha256').update(seed).update(String(i)).digest();
  for (let w = 0; w < FINGERPRINT_WORDS; w++) fingerprints[i * FINGERPRINT_WORDS + w] = digest.readUInt32BE(4 * w);
}
gc();
const t0 = performance.now();
const m = new KeyMembership(fingerprints);
const sortMs = performance.now() - t0;
gc();
const bytes = m.bytes; // the sorted Uint32Array plus the pending maps (none yet)
const ids = Array.from({ length: 10_000 }, () => createHash('sha256').update(randomBytes(32)).digest('hex'));
let positives = 0;
const t1 = performance.now();
for (let i = 0; i < 1_000_000; i++) if (m.mayContain(ids[i % ids.length]!)) positives++;
const lookupMs = performance.now() - t1;
const t2 = performance.now();
for (let i = 0; i < 400_000; i++) m.add(ids[i % ids.length]!.slice(0, 8) + String(i).padStart(56, '0'));
const addMs = performance.now() - t2;
console.log(
  JSON.stringify({
    N,
    bytesPerKey: bytes / N,
    sortMs: Math.round(sortMs),
    lookupsPerSec: Math.round(1e9 / lookupMs),
    positives,
    addsPerSecWithMerges: Math.round(400_000_000 / addMs),
  }),
);
