import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonString, lastJsonString } from './json-string.js';

describe('jsonString', () => {
  it('is JSON.stringify for every string', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('"', '\\', '\u007f', 'a', '\n') })),
        (value) => {
          expect(jsonString(value)).toBe(JSON.stringify(value));
          expect(lastJsonString()(value)).toBe(JSON.stringify(value));
        },
      ),
    );
  });

  it('answers each value on its own after another', () => {
    const json = lastJsonString();
    for (const value of ['a', 'a', 'b"', 'a', '\ud800', '\ud800', '']) expect(json(value)).toBe(JSON.stringify(value));
  });
});
