import { describe, expect, it } from 'vitest';
import { identityProviderFromEnv } from './identity-provider-from-env.js';
import { FIREBASE_JWKS_URL } from './presets.js';

describe('identityProviderFromEnv', () => {
  it('reads the Firebase preset', () => {
    expect(identityProviderFromEnv({ FIREBASE_PROJECT_ID: 'my-project' })).toEqual({
      issuer: 'https://securetoken.google.com/my-project',
      audience: 'my-project',
      jwksUrl: FIREBASE_JWKS_URL,
    });
  });

  it('reads a generic provider, with one or several audiences', () => {
    const env = { AUTH_ISSUER: 'https://id.example', AUTH_AUDIENCE: 'drops', AUTH_JWKS_URL: 'https://id.example/jwks' };
    expect(identityProviderFromEnv(env)).toEqual({ issuer: 'https://id.example', audience: 'drops', jwksUrl: 'https://id.example/jwks' });
    expect(identityProviderFromEnv({ ...env, AUTH_AUDIENCE: 'a, b' })?.audience).toEqual(['a', 'b']);
  });

  it('answers null when nothing is configured (blank counts as unset)', () => {
    expect(identityProviderFromEnv({})).toBeNull();
    expect(identityProviderFromEnv({ FIREBASE_PROJECT_ID: ' ', AUTH_ISSUER: '' })).toBeNull();
  });

  it.each([
    [{ FIREBASE_PROJECT_ID: 'p-1234', AUTH_ISSUER: 'https://id.example' }, /not both/],
    [{ AUTH_ISSUER: 'https://id.example' }, /missing AUTH_AUDIENCE, AUTH_JWKS_URL/],
    [{ AUTH_ISSUER: 'i', AUTH_AUDIENCE: ' , ', AUTH_JWKS_URL: 'https://j' }, /at least one audience/],
    [{ FIREBASE_PROJECT_ID: 'Not A Project' }, /projectId/],
  ])('refuses a half or double configuration with a TypeError (%o)', (env, message) => {
    expect(() => identityProviderFromEnv(env)).toThrow(TypeError);
    expect(() => identityProviderFromEnv(env)).toThrow(message);
  });
});
