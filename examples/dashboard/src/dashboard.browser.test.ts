/**
 * The whole lifecycle in real Chromium (Debian's `chromium`, driven by playwright-core): the
 * reference server in process (PGlite in memory, development identity provider) with the built
 * page mounted at /dashboard, a person signs in, mints a key, copies it, the test uses it against
 * the API, the person revokes it, and the API refuses it; GitHub then finds the other key in a
 * public repository, and the key activity says so.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../../express-server/src/testing/test-server.js';
import { launchChromium } from '../test/launch-chromium.js';
import { serveWithDashboard } from '../test/serve-with-dashboard.js';
import { dashboardConfig } from './dashboard-config.js';
import { dashboardStaticDir } from './static-dir.js';

// The README's screenshot is rewritten only on request (UPDATE_SCREENSHOTS=1), so a test run leaves
// the work tree clean; otherwise it is taken all the same, into a scratch folder, and checked.
const SCREENSHOT =
  process.env['UPDATE_SCREENSHOTS'] === '1'
    ? new URL('../../../docs/images/dashboard.png', import.meta.url)
    : new URL('../.tmp/dashboard.png', import.meta.url);
const UNIFORM_401 = { error: 'missing or invalid API key: sign in to the dashboard to mint one' };

describe('dashboard in Chromium', () => {
  let server: TestServer;
  let front: { url: string; close(): Promise<void> };
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const requests: Request[] = [];
  // Includes Content Security Policy violations: the page runs under the strict development CSP.
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ backend: 'pglite', idp: 'dev', github: true });
    // The reference server serves the page itself at /dashboard/ (development sign-in).
    front = { url: server.url, close: async () => {} };
    browser = await launchChromium();
    context = await browser.newContext({
      viewport: { width: 1100, height: 900 },
      locale: 'en-US',
      timezoneId: 'UTC',
      colorScheme: 'light',
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: front.url });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('request', (request) => requests.push(request));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await front?.close();
    await server?.close();
  });

  const activeId = (): Promise<string> => page.evaluate(() => document.activeElement?.id ?? '');
  const statusText = (): Promise<string> => page.locator('#status').innerText();

  it('signs in, mints and copies a key that works, revokes it, and the API then answers 401', async () => {
    // Something to list under "Drops": alice deploys one with an ID token.
    const deployed = await server.fetch('/deploy?name=alice-site', {
      method: 'POST',
      headers: { ...bearer(await server.token('alice')), 'content-type': 'text/html' },
      body: '<h1>hello</h1>',
    });
    expect(deployed.status).toBe(201);

    // The address people type, without the slash, lands on the page.
    await page.goto(`${front.url}/dashboard`);
    expect(page.url()).toBe(`${front.url}/dashboard/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('alice');
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByRole('heading', { name: 'API keys and drops' }).waitFor();
    await expect.poll(activeId).toBe('account-heading');
    expect(await page.locator('#account-label').innerText()).toBe('alice');
    await page.getByRole('link', { name: 'alice-site' }).waitFor();
    await page.getByText('No keys yet.').waitFor();

    // The ID token lives in memory only.
    const stored = await page.evaluate(async () => ({
      local: localStorage.length,
      session: sessionStorage.length,
      cookie: document.cookie,
      idb: (await indexedDB.databases()).length,
    }));
    expect(stored).toEqual({ local: 0, session: 0, cookie: '', idb: 0 });

    // Mint: the secret is shown once, focused, with the warning.
    await page.getByLabel('Key name', { exact: true }).fill('ci-main');
    await page.getByRole('button', { name: 'Mint key' }).click();
    await expect.poll(activeId).toBe('secret');
    const secret = await page.getByLabel('API key', { exact: true }).inputValue();
    expect(secret).toMatch(/^hp_[A-Za-z0-9_-]{43}$/);
    expect(await page.locator('#secret-warning').innerText()).toContain('it cannot be shown again');
    await expect.poll(statusText).toContain('Key ci-main');

    // Copy it as a person would, and read it back from the clipboard.
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(statusText).toBe('Key copied to the clipboard.');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(secret);

    // The key works against the API, from outside the browser.
    const whoami = await server.fetch('/whoami', { headers: bearer(copied) });
    expect(whoami.status).toBe(200);
    expect(await whoami.json()).toMatchObject({ accountId: 'dev:alice', credential: 'api_key' });

    // The list shows it by name and prefix.
    const row = page.getByRole('row', { name: /ci-main/ });
    await row.waitFor();
    expect(await row.innerText()).toContain(`${secret.slice(0, 10)}…`);

    // Done with the secret: it leaves the page, focus goes to the list.
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await expect.poll(activeId).toBe('keys-heading');
    expect(await page.locator('#secret').inputValue()).toBe('');
    expect(await page.locator('#secret-panel').isHidden()).toBe(true);

    // A second key, then the screenshot of the dashboard with keys listed.
    await page.getByLabel('Key name', { exact: true }).fill('deploy-preview');
    await page.getByRole('button', { name: 'Mint key' }).click();
    await expect.poll(activeId).toBe('secret');
    const preview = await page.locator('#secret').inputValue();
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await page.getByRole('row', { name: /deploy-preview/ }).waitFor();
    await page.locator('#events-list li').nth(1).waitFor();
    mkdirSync(new URL('.', SCREENSHOT), { recursive: true });
    await page.evaluate(() => {
      document.querySelector('#status')!.textContent = '';
    });
    const png = await page.screenshot({ path: SCREENSHOT.pathname, fullPage: true });
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');

    // Revoke asks first: Escape cancels and gives focus back to the button.
    const revoke = page.getByRole('button', { name: `Revoke key ci-main (${secret.slice(0, 10)}…)` });
    await revoke.click();
    const dialog = page.getByRole('dialog', { name: /Revoke key ci-main/ });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await revoke.evaluate((el) => el === document.activeElement)).toBe(true);
    expect((await server.fetch('/whoami', { headers: bearer(copied) })).status).toBe(200);

    // Confirmed: revoked, gone from the list, focus on the list.
    await revoke.click();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(statusText).toContain('Key ci-main');
    await expect.poll(statusText).toContain('revoked');
    await page.getByRole('row', { name: /ci-main/ }).waitFor({ state: 'detached' });
    await expect.poll(activeId).toBe('keys-heading');
    expect(await page.getByRole('row', { name: /deploy-preview/ }).count()).toBe(1);

    // The API refuses the revoked key, with the uniform 401.
    const after = await server.fetch('/whoami', { headers: bearer(copied) });
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual(UNIFORM_401);

    // GitHub finds the other key in a public repository and revokes it; Refresh keys shows it.
    const foundAt = 'https://github.com/alice/site/blob/main/.env';
    const alert = JSON.stringify([{ token: preview, type: 'drops_api_key', url: foundAt, source: 'content' }]);
    const scanned = await server.fetch('/secret-scanning/github', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...server.github!.signedHeaders(alert) },
      body: alert,
    });
    expect(scanned.status).toBe(200);
    await page.getByRole('button', { name: 'Refresh keys' }).click();
    await page.getByRole('row', { name: /deploy-preview/ }).waitFor({ state: 'detached' });
    await page.getByText('No keys yet.').waitFor();

    // The key activity, newest first: what happened to each key, when, and how.
    const activity = page.getByRole('list', { name: 'Key activity' });
    const found = activity.locator('li').filter({ hasText: 'found in a public repository' });
    await found.waitFor();
    expect(await found.innerText()).toContain(
      `Revoked deploy-preview (${preview.slice(0, 10)}…): found in a public repository at ${foundAt}`,
    );
    expect(await found.getByRole('link', { name: foundAt }).getAttribute('href')).toBe(foundAt);
    const lines = (await activity.locator('li').allInnerTexts()).filter((line) => !line.includes('First used'));
    expect(lines.map((line) => line.replace(/^.*?\n/, ''))).toEqual([
      `Revoked deploy-preview (${preview.slice(0, 10)}…): found in a public repository at ${foundAt}`,
      `Revoked ci-main (${secret.slice(0, 10)}…): by alice, from 127.0.0.1`,
      `Minted deploy-preview (${preview.slice(0, 10)}…): by alice, from 127.0.0.1`,
      `Minted ci-main (${secret.slice(0, 10)}…): by alice, from 127.0.0.1`,
    ]);
    // Each with its time.
    expect(await activity.locator('li time').count()).toBe(await activity.locator('li').count());
    // ci-main was used once, from outside the browser: its first use is written off the hot path
    // (batched), and listed once written.
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh keys' }).click();
          return activity.locator('li').filter({ hasText: 'First used ci-main' }).count();
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toBe(1);

    expect(await page.locator('#alert').innerText()).toBe('');
  });

  it('loads nothing from outside the server, and no Firebase code in development mode', () => {
    const urls = requests.map((r) => r.url());
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url.startsWith(`${front.url}/`), url).toBe(true);
    expect(urls.filter((u) => /firebase/i.test(u))).toEqual([]);
    expect(consoleErrors.filter((e) => !e.includes('401'))).toEqual([]);
  });

  it('returns to sign-in when the API answers 401 (an expired session), and signs in again by keyboard', async () => {
    await page.route('**/drops', (route) =>
      route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify(UNIFORM_401) }),
    );
    await page.getByRole('button', { name: 'Refresh drops' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expect.poll(activeId).toBe('sign-in-heading');
    await expect.poll(statusText).toBe('Your session expired. Sign in again.');
    expect(await page.locator('#account-view').isHidden()).toBe(true);
    expect(await page.locator('#keys-body tr').count()).toBe(0);
    expect(await page.locator('#alert').innerText()).toBe('');
    await page.unroute('**/drops');

    // Keyboard only: Tab to the name, type, Enter; Tab to the key name, type, Enter.
    await page.keyboard.press('Tab');
    expect(await activeId()).toBe('dev-name');
    await page.keyboard.type('bob');
    await page.keyboard.press('Enter');
    await expect.poll(activeId).toBe('account-heading');
    expect(await page.locator('#account-label').innerText()).toBe('bob');
    await page.getByText('No keys yet.').waitFor();
    await page.keyboard.press('Tab');
    expect(await activeId()).toBe('key-name');
    await page.keyboard.type('bob-ci');
    await page.keyboard.press('Enter');
    await expect.poll(activeId).toBe('secret');
    const bobKey = await page.locator('#secret').inputValue();
    const whoami = await server.fetch('/whoami', { headers: bearer(bobKey) });
    expect(await whoami.json()).toMatchObject({ accountId: 'dev:bob', credential: 'api_key' });

    // Sign out forgets everything shown.
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect.poll(activeId).toBe('sign-in-heading');
    expect(await page.locator('#secret').inputValue()).toBe('');
  });

  it('asks to sign in again when minting needs a more recent sign-in (MINT_MAX_AUTH_AGE_SECONDS), then mints', async () => {
    const strict = await startTestServer({ backend: 'pglite', idp: 'dev', env: { MINT_MAX_AUTH_AGE_SECONDS: '300' } });
    const p = await context.newPage();
    p.setDefaultTimeout(10_000);
    try {
      await p.goto(`${strict.url}/dashboard/`);
      await p.getByLabel('Name', { exact: true }).fill('carol');
      await p.getByRole('button', { name: 'Sign in' }).click();
      await p.getByText('No keys yet.').waitFor();

      // Six minutes later (on the server's clock) the sign-in is too old to mint with.
      strict.clock.advance(301_000);
      await p.getByLabel('Key name', { exact: true }).fill('late');
      await p.getByRole('button', { name: 'Mint key' }).click();
      await p.getByRole('heading', { name: 'Sign in' }).waitFor();
      await expect
        .poll(() => p.locator('#status').innerText())
        .toBe('To mint a key, sign in again: this server mints keys only within 5 minutes of signing in.');
      expect(await p.locator('#alert').innerText()).toBe('');

      // Signed in again: the mint goes through.
      await p.getByLabel('Name', { exact: true }).fill('carol');
      await p.getByRole('button', { name: 'Sign in' }).click();
      await p.getByRole('heading', { name: 'API keys and drops' }).waitFor();
      await p.getByLabel('Key name', { exact: true }).fill('fresh');
      await p.getByRole('button', { name: 'Mint key' }).click();
      // The secret is shown once the mint's answer arrives: wait for it, not for the click.
      await expect.poll(() => p.getByLabel('API key', { exact: true }).inputValue()).toMatch(/^hp_[A-Za-z0-9_-]{43}$/);
      const secret = await p.getByLabel('API key', { exact: true }).inputValue();
      expect(await (await strict.fetch('/whoami', { headers: bearer(secret) })).json()).toMatchObject({ accountId: 'dev:carol' });
    } finally {
      await p.close();
      await strict.close();
    }
  });

  it('offers one button per Firebase provider without loading the Firebase SDK until one is used, and says when sign-in is unavailable', async () => {
    const firebase = dashboardConfig(
      { kind: 'firebase', projectId: 'drops-test' },
      { FIREBASE_API_KEY: 'test-web-api-key', FIREBASE_SIGN_IN_PROVIDERS: 'google,github' },
    );
    const unavailable = dashboardConfig({ kind: 'oidc' });
    for (const [config, check] of [
      [
        firebase,
        async (p: Page, loaded: readonly string[]) => {
          await p.getByRole('button', { name: 'Sign in with Google' }).waitFor();
          await p.getByRole('button', { name: 'Sign in with GitHub' }).waitFor();
          expect(await p.getByRole('button', { name: 'Sign in with Apple' }).count()).toBe(0);
          expect(loaded.filter((u) => /firebase/i.test(u))).toEqual([]);
          // The lazily loaded chunk is there and loads in the browser (no Node globals left in it).
          const chunk = readdirSync(dashboardStaticDir()).find((f) => /^firebase-identity-.*\.js$/.test(f));
          expect(chunk).toBeDefined();
          // (A string, so Vite leaves this import() alone.)
          expect(await p.evaluate(`import('./${chunk}').then((m) => typeof m.firebaseSignIn)`)).toBe('function');
        },
      ],
      [
        unavailable,
        async (p: Page, _loaded: readonly string[]) => void (await p.getByText('this dashboard signs in only through Firebase').waitFor()),
      ],
    ] as const) {
      const other = await serveWithDashboard(server.running.app, config);
      const p = await context.newPage();
      p.setDefaultTimeout(10_000);
      const loaded: string[] = [];
      p.on('request', (r) => loaded.push(r.url()));
      try {
        await p.goto(`${other.url}/dashboard/`);
        await p.getByRole('heading', { name: 'Sign in' }).waitFor();
        await check(p, loaded);
        expect(await p.locator('#dev-sign-in').isHidden()).toBe(true);
      } finally {
        await p.close();
        await other.close();
      }
    }
  });
});
