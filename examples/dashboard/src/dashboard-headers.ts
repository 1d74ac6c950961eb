import type { DashboardConfig } from './dashboard-config.js';

/**
 * Response headers for the dashboard's files. Always: no framing (the revoke button cannot be
 * clickjacked), no MIME sniffing, no referrer, and a `Cross-Origin-Opener-Policy`, so a window
 * that opens the dashboard (a drop's `window.open('/dashboard/')`, any other site) gets no handle
 * on it: `same-origin`, or in Firebase mode `same-origin-allow-popups` (Firebase's
 * `signInWithPopup` keeps a handle on the sign-in popup it opens; an opener is cut off all the
 * same, its policy differing from the page's). Scripts: only those carrying `nonce` (the page's own,
 * see `dashboardPage`), never `'self'`: drops may share the origin. In development mode also a strict
 * Content Security Policy: the page loads and calls nothing but its own origin. In Firebase mode the
 * SDK needs Google's sign-in origins (popup, iframe, token endpoints): scripts by nonce and
 * `'strict-dynamic'`, and `frame-ancestors`.
 *
 * @example
 * ```ts
 * const headers = dashboardHeaders(config); // for the page's files; the page itself: dashboardPage()
 * app.use('/dashboard', express.static(dashboardStaticDir(), { setHeaders: (res) => res.set(headers) }));
 * ```
 */
export function dashboardHeaders(config: DashboardConfig, nonce?: string): Record<string, string> {
  // Only the page's own scripts, by the nonce of this response (dashboardPage): never 'self', as
  // drops may be served on this origin. Without a nonce (the page's other files), no script at all.
  const scripts = nonce === undefined ? "'none'" : `'nonce-${nonce}'`;
  const csp =
    config.identity.mode === 'firebase'
      ? // 'strict-dynamic': the scripts Firebase's SDK adds for its sign-in popup are trusted through
        // the page's own; a parser-inserted <script> (an injection) is not.
        `script-src ${scripts} 'strict-dynamic'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`
      : `default-src 'none'; script-src ${scripts}; style-src 'self'; connect-src 'self'; img-src 'self'; ` +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
  return {
    'content-security-policy': csp,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': config.identity.mode === 'firebase' ? 'same-origin-allow-popups' : 'same-origin',
  };
}
