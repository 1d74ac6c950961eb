/**
 * Issue 21, item 6, in real Chromium against the reference server: with drops on the API origin
 * (no `DROPS_ORIGIN`), a `<script src="/d/<slug>">` injected into the dashboard page would run a
 * drop as a script of the API origin under `script-src 'self'`. The page's CSP allows only its own
 * scripts (a nonce per response): the injected drop does not run, and the dashboard still works.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../express-server/src/testing/test-server.js';
import { launchChromium } from '../test/launch-chromium.js';

describe('the dashboard runs only its own scripts (Chromium)', () => {
  let browser: Browser;
  let server: TestServer;
  beforeAll(async () => {
    browser = await launchChromium();
    server = await startTestServer({ backend: 'pglite', idp: 'dev' });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await browser?.close();
  });

  it('does not run a drop injected as <script src="/d/<slug>">, and signs in as before', async () => {
    const deployed = await server.fetch('/deploy', {
      method: 'POST',
      headers: { 'content-type': 'text/javascript' },
      body: 'document.documentElement.dataset.dropRan = "yes";',
    });
    expect(deployed.status).toBe(201);
    const { slug } = (await deployed.json()) as { slug: string };

    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const violations: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
      });
      // The injection: whatever writes into the page (a template bug, a proxy), the server's headers kept.
      await page.route('**/dashboard/', async (route) => {
        const response = await route.fetch();
        const html = (await response.text()).replace('</head>', `<script src="/d/${slug}"></script></head>`);
        await route.fulfill({ response, body: html });
      });
      const res = await page.goto(`${server.url}/dashboard/`);
      const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(res!.headers()['content-security-policy'] ?? '')?.[1] ?? '';
      expect(scriptSrc).not.toContain("'self'");

      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill('alice');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'API keys and drops' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset['dropRan'] ?? 'no')).toBe('no');
      expect(violations.join('\n')).toContain(`/d/${slug}`);
    } finally {
      await context.close();
    }
  });
});
