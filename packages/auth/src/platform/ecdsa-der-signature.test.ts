import { generateKeyPairSync, sign, verify } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ecdsaDerToRaw, ecdsaP256DerToRaw } from './ecdsa-der-signature.js';

/** DER of one unsigned big-endian integer, written independently of the parser under test. */
function derInteger(value: Uint8Array): number[] {
  let start = 0;
  while (start < value.length - 1 && value[start] === 0) start++;
  const bytes = [...value.subarray(start)];
  if (bytes[0]! & 0x80) bytes.unshift(0);
  return [0x02, bytes.length, ...bytes];
}

function derSignature(r: Uint8Array, s: Uint8Array): Uint8Array {
  const body = [...derInteger(r), ...derInteger(s)];
  return Uint8Array.from([0x30, body.length, ...body]);
}

const scalar = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((b) => b.some((x) => x !== 0));

describe('ecdsaP256DerToRaw', () => {
  it('turns every DER signature into its r || s (property)', () => {
    fc.assert(
      fc.property(scalar, scalar, (r, s) => {
        expect(ecdsaP256DerToRaw(derSignature(r, s))).toEqual(Uint8Array.from([...r, ...s]));
      }),
    );
  });

  it('gives what Node verifies as IEEE P1363 for signatures Node made in DER', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    for (let i = 0; i < 50; i++) {
      const data = Buffer.from(`message ${i}`);
      const raw = ecdsaP256DerToRaw(sign('sha256', data, { key: privateKey, dsaEncoding: 'der' }));
      expect(raw).toHaveLength(64);
      expect(verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, raw!)).toBe(true);
    }
  });

  it.each<[string, number[]]>([
    ['empty', []],
    ['not a sequence', [0x31, 6, 2, 1, 1, 2, 1, 1]],
    ['a wrong sequence length', [0x30, 7, 2, 1, 1, 2, 1, 1]],
    ['trailing bytes', [0x30, 7, 2, 1, 1, 2, 1, 1, 0]],
    ['a long-form length', [0x30, 0x81, 6, 2, 1, 1, 2, 1, 1]],
    ['one integer only', [0x30, 3, 2, 1, 1]],
    ['a zero-length integer', [0x30, 5, 2, 0, 2, 1, 1]],
    ['a negative integer', [0x30, 6, 2, 1, 0x80, 2, 1, 1]],
    ['a needless leading zero', [0x30, 7, 2, 2, 0, 1, 2, 1, 1]],
    ['not an INTEGER tag', [0x30, 6, 4, 1, 1, 2, 1, 1]],
    ['an integer longer than 32 bytes', [0x30, 2 + 34 + 3, 2, 34, 0, 0x80, ...new Array<number>(32).fill(1), 2, 1, 1]],
  ])('refuses %s', (_what, bytes) => {
    expect(ecdsaP256DerToRaw(Uint8Array.from(bytes))).toBeUndefined();
  });

  it('accepts the 33-byte form of a 32-byte integer with its high bit set', () => {
    const r = new Uint8Array(32).fill(0xff);
    const s = Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 0 : 1));
    expect(ecdsaP256DerToRaw(derSignature(r, s))).toEqual(Uint8Array.from([...r, ...s]));
  });
});

describe('ecdsaDerToRaw', () => {
  it('gives what Node verifies as IEEE P1363 for P-384 signatures Node made in DER (48-byte scalars)', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    for (let i = 0; i < 50; i++) {
      const data = Buffer.from(`message ${i}`);
      const raw = ecdsaDerToRaw(sign('sha384', data, { key: privateKey, dsaEncoding: 'der' }), 48);
      expect(raw).toHaveLength(96);
      expect(verify('sha384', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, raw!)).toBe(true);
    }
  });

  it('refuses a P-384 signature as P-256 (its integers are longer than 32 bytes)', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const der = sign('sha384', Buffer.from('m'), { key: privateKey, dsaEncoding: 'der' });
    expect(ecdsaDerToRaw(der, 32)).toBeUndefined();
  });
});
