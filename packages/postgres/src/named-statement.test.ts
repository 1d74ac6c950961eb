import { describe, expect, it } from 'vitest';
import { namedStatement } from './named-statement.js';

describe('namedStatement', () => {
  const statement = namedStatement((p) => `select ${p('b')}::int, ${p('a')}::text where ${p('b')} > 0`);

  it('numbers parameters in the order each name first appears, a repeated name keeping its number', () => {
    expect(statement.text).toBe('select $1::int, $2::text where $1 > 0');
  });

  it('puts named arguments in that order, whatever order they are given in', () => {
    expect(statement.params({ a: 'x', b: 7 })).toEqual([7, 'x']);
    expect(statement.params({ a: null, b: 7, unused: true })).toEqual([7, null]);
  });

  it('throws naming a parameter not given, never sends it as null', () => {
    expect(() => statement.params({ b: 7 })).toThrow('statement parameter a not given');
    expect(() => statement.params({ a: 'x', b: undefined })).not.toThrow();
  });
});
