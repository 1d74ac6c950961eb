import { describe, expect, it } from 'vitest';
import { cacheControlMaxAgeMs } from './cache-control-max-age.js';

describe('cacheControlMaxAgeMs', () => {
  it.each([
    ['public, max-age=21600, must-revalidate, no-transform', null, 21_600_000],
    ['max-age=60', '15', 45_000],
    ['max-age=60', '90', 0],
    ['MAX-AGE="30"', null, 30_000],
    ['no-cache', null, 0],
    ['no-store, max-age=60', null, 0],
    ['public', null, undefined],
    ['max-age=abc', null, undefined],
  ] as const)('%s (age %s) -> %s', (header, age, expected) => {
    expect(cacheControlMaxAgeMs(header, age)).toBe(expected);
  });

  it('is undefined without the header', () => {
    expect(cacheControlMaxAgeMs(null, null)).toBeUndefined();
  });
});
