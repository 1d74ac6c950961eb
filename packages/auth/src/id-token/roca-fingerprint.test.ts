import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hasRocaFingerprint, ROCA_PRIMES } from './roca-fingerprint.js';

const bytesOf = (n: bigint): Uint8Array => Buffer.from(n.toString(16).padStart(512, '0'), 'hex');
const M = ROCA_PRIMES.reduce((product, p) => product * BigInt(p), 1n);

describe('hasRocaFingerprint', () => {
  it('flags a modulus of the form k·M + 65537^a mod M', () => {
    for (const a of [1, 77, 4093]) {
      let power = 1n;
      for (let i = 0; i < a; i++) power = (power * 65537n) % M;
      expect(hasRocaFingerprint(bytesOf(((1n << 2047n) / M + BigInt(a)) * M + power))).toBe(true);
    }
  });

  it('matches the published detector masks for the first primes (3: {1,2}, 11: {1,10}, 13: {1,3,4,9,10,12})', () => {
    // roca-detect's fingerprints for 3, 11 and 13 are 6, 1026 and 5658 (bit r set for residue r).
    const at = (residue: bigint, p: bigint): Uint8Array => {
      // The residue mod p is `residue`, and 1 mod every other listed prime: only p's mask decides.
      let n = 1n;
      while (n % p !== residue) n += M / p;
      return bytesOf(n);
    };
    expect([0n, 1n, 2n].map((r) => hasRocaFingerprint(at(r, 3n)))).toEqual([false, true, true]);
    expect([1n, 2n, 10n].map((r) => hasRocaFingerprint(at(r, 11n)))).toEqual([true, false, true]);
    expect([1n, 3n, 4n, 2n].map((r) => hasRocaFingerprint(at(r, 13n)))).toEqual([true, true, true, false]);
  });

  it('passes an ordinary key and random moduli', () => {
    const { n } = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' });
    expect(hasRocaFingerprint(Buffer.from(n!, 'base64url'))).toBe(false);
    for (let i = 0; i < 100; i++) expect(hasRocaFingerprint(randomBytes(256))).toBe(false);
  });
});
