import { describe, expect, it } from 'vitest';
import { UnauthenticatedError } from '../errors/index.js';
import { decodeJsonPart, MAX_TOKEN_LENGTH, splitCompactJwt } from './decode-compact-jwt.js';

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

  it.each(['', 'a', 'a.b', 'a.b.', '.b.c', 'a..c', 'a.b.c.d', 'a.b.c=', 'a.b+.c', 'a.b.c ', ' a.b.c', 'a.b.c\n'])(
    'refuses %j',
    (token) => {
      expect(() => splitCompactJwt(token)).toThrow(UnauthenticatedError);
    },
  );

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
