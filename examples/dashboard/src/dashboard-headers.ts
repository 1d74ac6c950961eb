import type { DashboardConfig } from './dashboard-config.js';

/**
 * Response headers for the dashboard's files. Always: no framing (the revoke button cannot be
 * clickjacked), no MIME sniffing, no referrer, and a `Cross-Origin-Opener-Policy`, so a window
 * that opens the dashboard (a drop's `window.open('/dashboard/')`, any other site) gets no handle
 * on it: `same-origin`, or in Firebase mode `same-origin-allow-popups` (Firebase's
 * `signInWithPopup` keeps a handle on the sign-in popup it opens; an opener is cut off all the
 * same, its policy differing from the page's). In development mode also a strict Content Security
 * Policy: the page loads and calls nothing but its own origin. In Firebase mode the SDK needs
 * Google's sign-in origins (popup, iframe, token endpoints), so only `frame-ancestors` is set.
 *
 * @example
 * ```ts
 * const headers = dashboardHeaders(config);
 * app.use('/dashboard', express.static(dashboardStaticDir(), { setHeaders: (res) => res.set(headers) }));
 * ```
 */
export function dashboardHeaders(config: DashboardConfig): Record<string, string> {
  const csp =
    config.identity.mode === 'firebase'
      ? "frame-ancestors 'none'"
      : "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
  return {
    'content-security-policy': csp,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': config.identity.mode === 'firebase' ? 'same-origin-allow-popups' : 'same-origin',
  };
}
