import { describe, expect, it } from 'vitest';
import { dashboardConfig } from './dashboard-config.js';
import { dashboardHeaders } from './dashboard-headers.js';

describe('dashboardHeaders', () => {
  // A window that opened the dashboard (a drop, any other site) keeps no handle on it.
  it('isolates the page from any window that opens it: Cross-Origin-Opener-Policy same-origin', () => {
    expect(dashboardHeaders(dashboardConfig({ kind: 'dev' }))['cross-origin-opener-policy']).toBe('same-origin');
    expect(dashboardHeaders(dashboardConfig({ kind: 'oidc' }))['cross-origin-opener-policy']).toBe('same-origin');
  });

  // Firebase's signInWithPopup must keep its handle on the sign-in popup it opens; a window that
  // opens the dashboard is still cut off (its COOP differs from the page's).
  it('lets Firebase sign-in keep its own popup: same-origin-allow-popups', () => {
    const firebase = dashboardConfig(
      { kind: 'firebase', projectId: 'drops-test' },
      { FIREBASE_API_KEY: 'k', FIREBASE_SIGN_IN_PROVIDERS: 'google' },
    );
    expect(dashboardHeaders(firebase)['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
  });

  it('forbids framing and sniffing, and sends no referrer', () => {
    expect(dashboardHeaders(dashboardConfig({ kind: 'dev' }))).toMatchObject({
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
  });

  // Drops may share the origin (no DROPS_ORIGIN): 'self' would run one injected as a script.
  it("allows only the page's own scripts, by nonce, never 'self'", () => {
    const firebase = dashboardConfig(
      { kind: 'firebase', projectId: 'drops-test' },
      { FIREBASE_API_KEY: 'k', FIREBASE_SIGN_IN_PROVIDERS: 'google' },
    );
    for (const config of [dashboardConfig({ kind: 'dev' }), firebase]) {
      const scriptSrc = /script-src ([^;]*)/.exec(dashboardHeaders(config, 'n0nce')['content-security-policy']!)?.[1];
      expect(scriptSrc).toMatch(/^'nonce-n0nce'/);
      expect(scriptSrc).not.toContain("'self'");
      expect(dashboardHeaders(config)['content-security-policy']).toContain("script-src 'none'");
    }
  });
});
