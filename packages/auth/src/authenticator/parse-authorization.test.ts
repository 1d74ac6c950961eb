import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../api-key/generate-api-key.js';
import { isApiKeyFormat } from '../api-key/api-key-format.js';
import {
  authorizationOf,
  authorizationOfNodeRequest,
  MAX_AUTHORIZATION_LENGTH,
  parseAuthorization,
  parseBearer,
  plainApiKeyOf,
} from './parse-authorization.js';

const key = generateApiKey().secret;
const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln';

describe('parseAuthorization', () => {
  it('reads an API key and an ID token from a Bearer header', () => {
    expect(parseAuthorization(`Bearer ${key}`)).toEqual({ kind: 'api_key', value: key });
    expect(parseAuthorization(`Bearer ${jwt}`)).toEqual({ kind: 'id_token', value: jwt });
  });

  it('treats the scheme case-insensitively (RFC 7235)', () => {
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      expect(parseAuthorization(`${scheme} ${key}`)).toEqual({ kind: 'api_key', value: key });
    }
  });

  it('allows several spaces after the scheme and surrounding whitespace', () => {
    expect(parseAuthorization(`Bearer    ${key}`)).toEqual({ kind: 'api_key', value: key });
    expect(parseAuthorization(`  Bearer ${key}  `)).toEqual({ kind: 'api_key', value: key });
  });

  it('is absent only when there is no header at all', () => {
    expect(parseAuthorization(undefined)).toEqual({ kind: 'absent' });
    expect(parseAuthorization(null)).toEqual({ kind: 'absent' });
    expect(parseAuthorization('')).toEqual({ kind: 'malformed' });
  });

  it.each([
    ['another scheme', `Basic ${key}`],
    ['no credential', 'Bearer'],
    ['only spaces after scheme', 'Bearer    '],
    ['no space', `Bearer${key}`],
    ['tab separator', `Bearer\t${key}`],
    ['two credentials', `Bearer ${key} ${key}`],
    ['comma list', `Bearer ${key}, Bearer ${key}`],
    ['auth-param form', `Bearer token="${key}"`],
    ['raw key without scheme', key],
    ['scheme prefix lookalike', `Bearerx ${key}`],
    ['newline smuggling', `Bearer ${key}\r\nX-Evil: 1`],
    ['too long', `Bearer ${'a'.repeat(MAX_AUTHORIZATION_LENGTH)}`],
  ])('is malformed for %s', (_label, value) => {
    expect(parseAuthorization(value)).toEqual({ kind: 'malformed' });
  });

  it('is malformed for several header values, never "take the first"', () => {
    expect(parseAuthorization([`Bearer ${key}`, `Bearer ${jwt}`])).toEqual({ kind: 'malformed' });
  });

  it('never throws and only yields a credential that was a whole token68 (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constant(undefined)), (value) => {
        const parsed = parseAuthorization(value);
        if (parsed.kind === 'api_key' || parsed.kind === 'id_token') {
          expect(parsed.value).toMatch(/^[A-Za-z0-9\-._~+/]+=*$/);
          expect(value?.toLowerCase()).toContain(parsed.value.toLowerCase());
          expect(parsed.kind === 'api_key').toBe(parsed.value.startsWith('hp_'));
        }
      }),
    );
  });

  it('round-trips any token68 with any scheme casing (property)', () => {
    const token68 = fc.stringMatching(/^[A-Za-z0-9\-._~+/]{1,80}=*$/);
    const casing = fc.array(fc.boolean(), { minLength: 6, maxLength: 6 });
    fc.assert(
      fc.property(token68, casing, fc.integer({ min: 1, max: 4 }), (token, upper, spaces) => {
        const scheme = [...'bearer'].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('');
        const parsed = parseAuthorization(`${scheme}${' '.repeat(spaces)}${token}`);
        expect(parsed).toEqual({ kind: token.startsWith('hp_') ? 'api_key' : 'id_token', value: token });
      }),
    );
  });
});

describe('parseBearer', () => {
  it('leaves the characters to be checked: a credential parseAuthorization refuses is still a key or a token here', () => {
    expect(parseBearer('Bearer a b')).toEqual({ kind: 'id_token', value: 'a b' });
    expect(parseAuthorization('Bearer a b')).toEqual({ kind: 'malformed' });
    const key = `hp_${'A'.repeat(41)}.A`;
    expect(parseBearer(`Bearer ${key}`)).toEqual({ kind: 'api_key', value: key });
    expect(parseAuthorization(`Bearer ${key}`)).toEqual({ kind: 'malformed' });
    for (const value of ['Basic x', 'Bearer', undefined, ['Bearer a', 'Bearer b']])
      expect(parseBearer(value)).toEqual(parseAuthorization(value));
  });
});

describe('plainApiKeyOf', () => {
  it('reads the secret of the usual spelling only', () => {
    expect(plainApiKeyOf(`Bearer ${key}`)).toBe(key);
    for (const other of [`bearer ${key}`, `Bearer  ${key}`, ` Bearer ${key}`, `Bearer ${key} `, `Bearer ${jwt}`, `Bearer ${key}A`]) {
      expect(plainApiKeyOf(other)).toBeUndefined();
    }
  });

  it('answers what parseBearer answers, or a secret the authenticator refuses as malformed (property)', () => {
    // Values of the plain spelling's length whose secret part is drawn from the key alphabet and
    // the characters a header can end or be padded with.
    const secret = fc.string({
      unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_ .\t'),
      minLength: 43,
      maxLength: 43,
    });
    fc.assert(
      fc.property(
        fc.oneof(
          secret.map((rest) => `Bearer hp_${rest}`),
          fc.string(),
        ),
        (value) => {
          const plain = plainApiKeyOf(value);
          if (plain === undefined) return;
          const parsed = parseBearer(value);
          if (parsed.kind === 'api_key') expect(plain).toBe(parsed.value);
          else expect([parsed.kind, isApiKeyFormat(plain)]).toEqual(['malformed', false]);
        },
      ),
    );
  });
});

describe('authorizationOf', () => {
  it('reads Fetch Headers and Node header objects', () => {
    expect(authorizationOf(new Headers({ Authorization: 'Bearer x' }))).toBe('Bearer x');
    expect(authorizationOf({ authorization: 'Bearer y' })).toBe('Bearer y');
    expect(authorizationOf({})).toBeUndefined();
    expect(authorizationOf(new Headers())).toBeUndefined();
  });
});

describe('authorizationOfNodeRequest', () => {
  it('reads the one Authorization header of a Node request, whatever its case', () => {
    expect(authorizationOfNodeRequest({ headers: {}, rawHeaders: ['Host', 'x', 'AUTHORIZATION', 'Bearer a'] })).toBe('Bearer a');
    expect(authorizationOfNodeRequest({ headers: {}, rawHeaders: ['Host', 'x'] })).toBeUndefined();
  });

  it('answers every value when the header is repeated, which the parser refuses', () => {
    const values = authorizationOfNodeRequest({
      headers: { authorization: 'Bearer first' },
      rawHeaders: ['authorization', 'Bearer first', 'Accept', '*/*', 'Authorization', 'Bearer second'],
    });
    expect(values).toEqual(['Bearer first', 'Bearer second']);
    expect(parseAuthorization(values)).toEqual({ kind: 'malformed' });
  });

  it('falls back to req.headers without rawHeaders', () => {
    expect(authorizationOfNodeRequest({ headers: { authorization: 'Bearer z' } })).toBe('Bearer z');
  });
});
