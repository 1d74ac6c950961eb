import type { RequestHandler } from 'express';

/**
 * The Content Security Policy of every answer that serves user bytes (drops, vanity names, and
 * their error answers). `sandbox` gives the page an opaque origin (`self.origin === "null"`): it
 * may run scripts, submit forms, open popups (which escape the sandbox, so links to other sites
 * work), show dialogs and start downloads, as a static site needs, but it can never act as the
 * origin that served it: no same-origin `fetch` with that origin's storage, no scripting of a
 * window on it (the dashboard), no cookies. `allow-same-origin` is never in this list: with
 * `allow-scripts` it would undo the sandbox.
 */
export const USER_CONTENT_CSP =
  'sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-modals allow-downloads';

/**
 * Headers of every answer serving user bytes:
 * - the sandbox above;
 * - `X-Content-Type-Options: nosniff`: served as the type it was deployed with, never sniffed into
 *   HTML or script;
 * - `Cross-Origin-Resource-Policy: cross-origin`: drops are public by design (anyone with the URL
 *   reads them, and no credential or cookie ever changes what is served), so there is nothing for
 *   the policy to keep from other sites, and a drop's image or stylesheet may be embedded anywhere,
 *   including by pages that require CORP (`Cross-Origin-Embedder-Policy`). `same-origin` would break
 *   those embeds and protect no secret.
 */
export const USER_CONTENT_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': USER_CONTENT_CSP,
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'cross-origin',
};

/**
 * Sets {@link USER_CONTENT_HEADERS} before anything else answers, so a 200, a 404, a 400 for an
 * undecodable path, a redirect or a 500 all carry them.
 */
export function userContentHeaders(): RequestHandler {
  return (_req, res, next) => {
    for (const [name, value] of Object.entries(USER_CONTENT_HEADERS)) res.setHeader(name, value);
    next();
  };
}
