import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, isApiKeyFormat, isKeyId } from './api-key-format.js';
import { generateApiKey } from './generate-api-key.js';
import { keyIdOf, keyPrefixOf } from './key-id.js';

const fixedBytes = (fill: number) => () => new Uint8Array(32).fill(fill);

describe('generateApiKey', () => {
  it('makes hp_ + 43 base64url characters from 32 random bytes', () => {
    const key = generateApiKey();
    expect(key.secret).toMatch(/^hp_[A-Za-z0-9_-]{43}$/);
    expect(key.secret).toHaveLength(46);
    expect(isApiKeyFormat(key.secret)).toBe(true);
  });

  it('derives id as lowercase hex SHA-256 of the whole secret and prefix as its first 10 chars', () => {
    const key = generateApiKey();
    expect(key.id).toBe(createHash('sha256').update(key.secret).digest('hex'));
    expect(isKeyId(key.id)).toBe(true);
    expect(key.prefix).toBe(key.secret.slice(0, 10));
  });

  it('encodes the injected bytes exactly (test vector)', () => {
    const key = generateApiKey(fixedBytes(0));
    expect(key.secret).toBe(`hp_${'A'.repeat(43)}`);
    expect(key.id).toBe(
      createHash('sha256')
        .update(`hp_${'A'.repeat(43)}`)
        .digest('hex'),
    );
    expect(generateApiKey(fixedBytes(0xff)).secret).toBe(`hp_${'_'.repeat(42)}8`);
  });

  it('never repeats a secret from the real CSPRNG', () => {
    const secrets = new Set(Array.from({ length: 1000 }, () => generateApiKey().secret));
    expect(secrets.size).toBe(1000);
  });

  it('refuses a random source that returns the wrong number of bytes', () => {
    expect(() => generateApiKey(() => new Uint8Array(16))).toThrow(TypeError);
  });

  it('formats every 32-byte input as a valid key (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        const key = generateApiKey(() => bytes);
        expect(isApiKeyFormat(key.secret)).toBe(true);
        expect(Buffer.from(key.secret.slice(3), 'base64url')).toEqual(Buffer.from(bytes));
      }),
    );
  });
});

describe('isApiKeyFormat', () => {
  const valid = generateApiKey().secret;

  it.each([
    ['empty', ''],
    ['prefix only', 'hp_'],
    ['one short', valid.slice(0, 45)],
    ['one long', `${valid}A`],
    ['wrong prefix', `hq_${valid.slice(3)}`],
    ['upper-case prefix', `HP_${valid.slice(3)}`],
    ['padding', `${valid.slice(0, 45)}=`],
    ['standard base64 +', `${valid.slice(0, 10)}+${valid.slice(11)}`],
    ['standard base64 /', `${valid.slice(0, 10)}/${valid.slice(11)}`],
    ['non-canonical last char', `hp_${'A'.repeat(42)}B`],
    ['whitespace', `${valid.slice(0, 45)} `],
    ['unicode', `${valid.slice(0, 45)}é`],
  ])('refuses %s', (_label, value) => {
    expect(isApiKeyFormat(value)).toBe(false);
  });

  it('refuses any string that is not exactly the format (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => {
        expect(isApiKeyFormat(s)).toBe(API_KEY_PATTERN.test(s) && s.length === 46);
      }),
    );
    fc.assert(
      fc.property(fc.string({ minLength: 43, maxLength: 43 }), (tail) => {
        const candidate = `hp_${tail}`;
        const canonical = Buffer.from(tail, 'base64url').length === 32 && Buffer.from(tail, 'base64url').toString('base64url') === tail;
        expect(isApiKeyFormat(candidate)).toBe(canonical);
      }),
    );
  });

  it('agrees with API_KEY_PATTERN on a valid key with any one character replaced (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 45 }),
        fc.oneof(fc.constantFrom(...'AEIMQUYcgkosw048Bz9_-+/= \n\u00e9'), fc.string({ minLength: 1, maxLength: 1, unit: 'binary' })),
        (at, char) => {
          const candidate = valid.slice(0, at) + char + valid.slice(at + 1);
          expect(isApiKeyFormat(candidate)).toBe(candidate.length === 46 && API_KEY_PATTERN.test(candidate));
        },
      ),
    );
  });
});

describe('keyIdOf / keyPrefixOf', () => {
  it('matches node:crypto createHash for any string (property)', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(keyIdOf(s)).toBe(createHash('sha256').update(s).digest('hex'));
      }),
    );
  });

  it('takes the first 10 characters', () => {
    expect(keyPrefixOf('hp_abcdefghijk')).toBe('hp_abcdefg');
  });
});
