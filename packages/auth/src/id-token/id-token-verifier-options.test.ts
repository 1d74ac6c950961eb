import { describe, expect, it } from 'vitest';
import { createIdTokenVerifier } from './create-id-token-verifier.js';
import { parseIdTokenVerifierOptions } from './id-token-verifier-options.js';
import { firebase, FIREBASE_JWKS_URL } from './presets.js';

const base = { issuer: 'https://idp.example.com', audience: 'app', jwksUrl: 'https://idp.example.com/jwks' };

describe('firebase preset', () => {
  it('names the securetoken issuer, the project as audience and Google JWKS', () => {
    expect(firebase({ projectId: 'my-project' })).toEqual({
      issuer: 'https://securetoken.google.com/my-project',
      audience: 'my-project',
      jwksUrl: 'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com',
    });
    expect(FIREBASE_JWKS_URL).toBe(firebase({ projectId: 'abc-123' }).jwksUrl);
  });

  it('refuses a project id that is not one', () => {
    for (const projectId of ['', 'My Project', 'a/b', '-x-', undefined]) {
      expect(() => firebase({ projectId: projectId as string })).toThrow(TypeError);
    }
  });

  it('spreads into createIdTokenVerifier', () => {
    expect(() => createIdTokenVerifier({ ...firebase({ projectId: 'my-project' }) })).not.toThrow();
  });
});

describe('parseIdTokenVerifierOptions', () => {
  it('fills in the defaults', () => {
    const o = parseIdTokenVerifierOptions(base);
    expect(o).toMatchObject({
      audiences: ['app'],
      clockToleranceSeconds: 5,
      fetchTimeoutMs: 5000,
      unknownKidCooldownMs: 30_000,
      defaultMaxAgeMs: 600_000,
      staleWhileErrorMs: 3_600_000,
      maxCachedTokens: 10_000,
    });
    expect(o.jwksUrl?.href).toBe('https://idp.example.com/jwks');
    expect(typeof o.clock()).toBe('number');
  });

  it('accepts an audience list and a tolerance of five minutes', () => {
    const o = parseIdTokenVerifierOptions({ ...base, audience: ['a', 'b'], clockToleranceSeconds: 300 });
    expect(o.audiences).toEqual(['a', 'b']);
  });

  it.each(['http://localhost:8080/jwks', 'http://127.0.0.1/jwks', 'http://127.1.2.3:9/jwks', 'http://[::1]:8080/jwks'])(
    'accepts plain HTTP on loopback: %s',
    (jwksUrl) => {
      expect(() => parseIdTokenVerifierOptions({ ...base, jwksUrl })).not.toThrow();
    },
  );

  const bad: [string, Record<string, unknown>][] = [
    ['tolerance over five minutes', { clockToleranceSeconds: 301 }],
    ['negative tolerance', { clockToleranceSeconds: -1 }],
    ['http on a public host', { jwksUrl: 'http://idp.example.com/jwks' }],
    ['http on a host that only starts with 127', { jwksUrl: 'http://127.0.0.1.evil.com/jwks' }],
    ['http on 10.0.0.1', { jwksUrl: 'http://10.0.0.1/jwks' }],
    ['a relative jwksUrl', { jwksUrl: '/jwks' }],
    ['a file: jwksUrl', { jwksUrl: 'file:///etc/passwd' }],
    ['missing issuer', { issuer: undefined }],
    ['empty audience', { audience: '' }],
    ['empty audience list', { audience: [] }],
    ['an unknown option (typo)', { clockTolerance: 5 }],
    ['a clock that is not a function', { clock: 12 }],
    ['a fetch that is not a function', { fetch: 'fetch' }],
    ['zero fetch timeout', { fetchTimeoutMs: 0 }],
    ['negative cache size', { maxCachedTokens: -1 }],
    ['fractional cooldown', { unknownKidCooldownMs: 1.5 }],
  ];
  for (const [name, change] of bad) {
    it(`throws TypeError for ${name}, at construction`, () => {
      expect(() => parseIdTokenVerifierOptions({ ...base, ...change })).toThrow(TypeError);
      expect(() => createIdTokenVerifier({ ...base, ...change } as never)).toThrow(TypeError);
    });
  }

  it('throws TypeError for no options at all', () => {
    expect(() => createIdTokenVerifier(undefined as never)).toThrow(TypeError);
  });
});
