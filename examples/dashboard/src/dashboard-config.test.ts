import { describe, expect, it } from 'vitest';
import { dashboardConfig } from './dashboard-config.js';

describe('dashboardConfig', () => {
  it('uses the development provider when the server does', () => {
    expect(dashboardConfig({ kind: 'dev' })).toEqual({ identity: { mode: 'dev' } });
  });

  it('configures Firebase from the project id and FIREBASE_* variables', () => {
    expect(dashboardConfig({ kind: 'firebase', projectId: 'drops-prod' }, { FIREBASE_API_KEY: 'AIza-test' })).toEqual({
      identity: {
        mode: 'firebase',
        firebase: { apiKey: 'AIza-test', authDomain: 'drops-prod.firebaseapp.com', projectId: 'drops-prod' },
        providers: ['google', 'github', 'apple'],
      },
    });
    const custom = dashboardConfig(
      { kind: 'firebase', projectId: 'drops-prod' },
      { FIREBASE_API_KEY: 'k', FIREBASE_AUTH_DOMAIN: 'login.example.com', FIREBASE_SIGN_IN_PROVIDERS: 'GitHub, google' },
    );
    expect(custom.identity).toMatchObject({ firebase: { authDomain: 'login.example.com' }, providers: ['github', 'google'] });
  });

  it('says sign-in is unavailable without a Firebase Web API key, or with a generic provider', () => {
    expect(dashboardConfig({ kind: 'firebase', projectId: 'drops-prod' }, { FIREBASE_API_KEY: ' ' }).identity).toMatchObject({
      mode: 'unavailable',
      reason: expect.stringContaining('FIREBASE_API_KEY'),
    });
    expect(dashboardConfig({ kind: 'oidc' }).identity.mode).toBe('unavailable');
  });

  it('refuses unknown sign-in providers with a TypeError', () => {
    const firebase = { kind: 'firebase', projectId: 'drops-prod' } as const;
    expect(() => dashboardConfig(firebase, { FIREBASE_API_KEY: 'k', FIREBASE_SIGN_IN_PROVIDERS: 'google,myspace' })).toThrow(TypeError);
    expect(() => dashboardConfig(firebase, { FIREBASE_API_KEY: 'k', FIREBASE_SIGN_IN_PROVIDERS: ',' })).toThrow(TypeError);
  });

  it('tells the page how recent a sign-in minting needs, when the server says', () => {
    expect(dashboardConfig({ kind: 'dev' }, {}, { mintMaxAuthAgeSeconds: 300 })).toEqual({
      identity: { mode: 'dev' },
      mintMaxAuthAgeSeconds: 300,
    });
    expect(dashboardConfig({ kind: 'dev' }, {}, { mintMaxAuthAgeSeconds: null })).toEqual({ identity: { mode: 'dev' } });
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => dashboardConfig({ kind: 'dev' }, {}, { mintMaxAuthAgeSeconds: bad })).toThrow(TypeError);
    }
  });
});
