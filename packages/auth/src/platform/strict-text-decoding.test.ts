import { describe, expect, it } from 'vitest';
import * as nodeCrypto from './runtime-crypto.js';
import * as webCrypto from './runtime-crypto.web.js';

/**
 * One corpus of JWT parts through both builds' `base64UrlDecodeText`: the same verdict, and the
 * same text, for every input. UTF-8 is decoded fatally and a byte-order mark is kept (as U+FEFF,
 * never silently dropped), so the JSON parse after it refuses it alike everywhere.
 */
const hex = (h: string): string => Buffer.from(h.replace(/ /g, ''), 'hex').toString('base64url');

const INVALID_UTF8: ReadonlyArray<readonly [string, string]> = [
  ['a lone continuation byte', '7b 22 61 22 3a 22 80 22 7d'],
  ['an overlong slash', '7b 22 61 22 3a 22 c0 af 22 7d'],
  ['an encoded surrogate', '7b 22 61 22 3a 22 ed a0 80 22 7d'],
  ['a truncated sequence', '7b 22 61 22 3a 22 e2 82 22 7d'],
  ['0xff', '7b 22 61 22 3a 22 ff 22 7d'],
  ['a code point above U+10FFFF', '7b 22 61 22 3a 22 f4 90 80 80 22 7d'],
  ['a truncated sequence at the end', '7b 7d e2 82'],
];

const VALID: ReadonlyArray<readonly [string, string]> = [
  ['ASCII', '7b 22 61 22 3a 31 7d'],
  ['é and an emoji', '7b 22 61 22 3a 22 c3 a9 f0 9f 98 80 22 7d'],
  ['a BOM at the start (kept, not dropped)', 'ef bb bf 7b 7d'],
  ['U+FEFF inside a string', '7b 22 61 22 3a 22 ef bb bf 22 7d'],
];

function verdict(decode: (text: string) => string, part: string): string {
  try {
    return `text ${JSON.stringify(decode(part))}`;
  } catch {
    return 'refused';
  }
}

describe('base64UrlDecodeText: one corpus, one verdict in both builds', () => {
  it.each(INVALID_UTF8)('refuses %s', (_what, bytes) => {
    expect(verdict(nodeCrypto.base64UrlDecodeText, hex(bytes))).toBe('refused');
    expect(verdict(webCrypto.base64UrlDecodeText, hex(bytes))).toBe('refused');
  });

  it.each(VALID)('decodes %s exactly alike', (_what, bytes) => {
    const expected = `text ${JSON.stringify(Buffer.from(bytes.replace(/ /g, ''), 'hex').toString('utf8'))}`;
    expect(verdict(nodeCrypto.base64UrlDecodeText, hex(bytes))).toBe(expected);
    expect(verdict(webCrypto.base64UrlDecodeText, hex(bytes))).toBe(expected);
  });
});
