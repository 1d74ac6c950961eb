import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DashboardConfig } from './dashboard-config.js';
import { dashboardHeaders } from './dashboard-headers.js';
import { dashboardStaticDir } from './static-dir.js';

let template: string | undefined;

/**
 * The dashboard's `index.html` for one response, and the headers to send it with: a fresh nonce
 * on each of the page's own `<script>` elements and in its Content Security Policy, so the page
 * runs its own scripts (and the chunks they import) and nothing else. Drops may share the API's
 * origin: a `script-src 'self'` would run any drop that something injected as
 * `<script src="/d/<slug>">`; a nonce it cannot know does not. Serve `index.html` only through
 * this (never as a static file), with `cache-control: no-store`.
 *
 * @example
 * ```ts
 * router.get('/', (_req, res) => {
 *   const page = dashboardPage(config);
 *   res.set(page.headers).set('cache-control', 'no-store').type('html').send(page.html);
 * });
 * ```
 */
export function dashboardPage(config: DashboardConfig): { html: string; headers: Record<string, string> } {
  template ??= readFileSync(join(dashboardStaticDir(), 'index.html'), 'utf8');
  const nonce = randomBytes(16).toString('base64');
  return { html: template.replaceAll('<script ', `<script nonce="${nonce}" `), headers: dashboardHeaders(config, nonce) };
}
