import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UnauthenticatedError } from '../errors/index.js';
import { decodeJsonPart, isCanonicalBase64url, MAX_TOKEN_LENGTH, splitCompactJwt } from './decode-compact-jwt.js';

const part = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('splitCompactJwt', () => {
  it('splits three base64url parts', () => {
    expect(splitCompactJwt('aGVhZA.cGF5.c2ln')).toEqual({
      header: 'aGVhZA',
      payload: 'cGF5',
      signature: 'c2ln',
      signingInput: 'aGVhZA.cGF5',
    });
  });

  it.each(['', 'a', 'a.b', 'a.b.', '.b.c', 'a..c', 'a.b.c.d', 'a.b.c=', 'a.b+.c', 'a.b.c ', ' a.b.c', 'a.b.c\n'])('refuses %j', (token) => {
    expect(() => splitCompactJwt(token)).toThrow(UnauthenticatedError);
  });

  it('refuses a token over the size limit before looking at it', () => {
    expect(() => splitCompactJwt(`a.${'b'.repeat(MAX_TOKEN_LENGTH)}.c`)).toThrow(UnauthenticatedError);
  });
});

describe('decodeJsonPart', () => {
  it('decodes a JSON object', () => {
    expect(decodeJsonPart(part({ alg: 'RS256' }), 'header')).toEqual({ alg: 'RS256' });
  });

  it.each([part([1]), part('s'), part(null), part(1), Buffer.from('{').toString('base64url')])('refuses %s', (p) => {
    expect(() => decodeJsonPart(p, 'payload')).toThrow(UnauthenticatedError);
  });
});

describe('canonical base64url', () => {
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  /** The same bytes spelled differently: the last character's unused low bits set to `bits`. */
  const respell = (canonical: string, bits: number): string => {
    const last = ALPHABET.indexOf(canonical.slice(-1));
    return canonical.slice(0, -1) + ALPHABET[last | bits];
  };
  const unusedMask = (encoded: string): number => (encoded.length % 4 === 2 ? 0x0f : 0x03);

  it('refuses a part whose last character sets unused bits, in each of the three parts', () => {
    // 'ab' -> 'YWI' (2 unused bits), 'a' -> 'YQ' (4 unused bits): 'YWJ' and 'YR' decode to the same bytes.
    expect(Buffer.from('YWJ', 'base64url').toString()).toBe('ab');
    expect(Buffer.from('YR', 'base64url').toString()).toBe('a');
    expect(() => splitCompactJwt('YWI.YQ.YWI')).not.toThrow();
    for (const token of ['YWJ.YQ.YWI', 'YWI.YR.YWI', 'YWI.YQ.YWJ', 'YWI.YQ.YX']) {
      expect(() => splitCompactJwt(token), token).toThrow(UnauthenticatedError);
    }
  });

  it('refuses a part of length 1 mod 4, which encodes no whole byte', () => {
    expect(() => splitCompactJwt('YWI.YQ.YWIxA')).toThrow(UnauthenticatedError);
  });

  it('accepts exactly the parts that re-encode to themselves (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: 1, maxLength: 12 }), (s) => {
        const canonical = Buffer.from(s, 'base64url').toString('base64url') === s;
        expect(isCanonicalBase64url(s)).toBe(canonical);
        const token = `YWI.${s}.YWI`;
        if (canonical) expect(() => splitCompactJwt(token)).not.toThrow();
        else expect(() => splitCompactJwt(token)).toThrow(UnauthenticatedError);
      }),
    );
  });

  it('accepts every canonical encoding and refuses each of its other spellings (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.integer({ min: 1, max: 15 }), (bytes, flip) => {
        const canonical = Buffer.from(bytes).toString('base64url');
        expect(isCanonicalBase64url(canonical)).toBe(true);
        const bits = flip & unusedMask(canonical);
        if (canonical.length % 4 === 0 || bits === 0) return;
        const other = respell(canonical, bits);
        expect(Buffer.from(other, 'base64url')).toEqual(Buffer.from(bytes));
        expect(isCanonicalBase64url(other)).toBe(false);
      }),
    );
  });
});
