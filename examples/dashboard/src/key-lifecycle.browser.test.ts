/**
 * The key lifecycle in real Chromium against the reference server in process (PGlite in memory,
 * development identity provider, the built page at /dashboard): mint with an expiry, the expiry
 * column, a key expiring before the person's eyes.
 */
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../../express-server/src/testing/test-server.js';
import { launchChromium } from '../test/launch-chromium.js';

// The reference server's own packages (this one depends on neither): a webhook endpoint on
// loopback that records what it gets, and standardwebhooks, what an endpoint verifies with.
interface Received {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}
const serverRequire = createRequire(new URL('../../express-server/package.json', import.meta.url));
const { LocalWebhookReceiver } = serverRequire('@drops/auth/testing') as {
  LocalWebhookReceiver: {
    start(options?: {
      answer?: (i: number) => { status: number };
    }): Promise<{ url: string; delivered: readonly Received[]; received: readonly Received[]; close(): Promise<void> }>;
  };
};
const { Webhook } = serverRequire('standardwebhooks') as {
  Webhook: new (secret: string) => { verify(body: string, headers: Record<string, string>): unknown };
};
const DAY = 86_400_000;
const HP_KEY = /^hp_[A-Za-z0-9_-]{43}$/;

interface ListedKey {
  readonly id: string;
  readonly name: string | null;
  readonly expiresAt: string | null;
}

describe('key lifecycle in the dashboard, in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];
  /** erin's secrets, for revoke all. */
  const erinSecrets: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ backend: 'pglite', idp: 'dev', env: { WEBHOOK_RETRY_SECONDS: '0,0,0' } });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-US', timezoneId: 'UTC' });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.goto(`${server.url}/dashboard/`);
    await page.getByLabel('Name', { exact: true }).fill('dana');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('No keys yet.').waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const listed = async (account = 'dana'): Promise<ListedKey[]> =>
    ((await (await server.fetch('/keys', { headers: bearer(await server.token(account)) })).json()) as { keys: ListedKey[] }).keys;
  const whoamiStatus = async (key: string): Promise<number> => (await server.fetch('/whoami', { headers: bearer(key) })).status;
  const statusText = (): Promise<string> => page.locator('#status').innerText();
  const activeId = (): Promise<string> => page.evaluate(() => document.activeElement?.id ?? '');

  /** Mints through the form and resolves the secret shown, then puts it away. */
  async function mintInPage(name: string, pickExpiry: () => Promise<void>): Promise<string> {
    await page.getByLabel('Key name', { exact: true }).fill(name);
    await pickExpiry();
    await page.getByRole('button', { name: 'Mint key' }).click();
    await expect.poll(() => page.getByLabel('API key', { exact: true }).inputValue()).toMatch(HP_KEY);
    const secret = await page.getByLabel('API key', { exact: true }).inputValue();
    await page.getByRole('button', { name: 'I have saved it' }).click();
    return secret;
  }

  it('mints with an expiry preset: the server holds it, the list says when, and answers carry Drops-Key-Expiration', async () => {
    const before = Date.now();
    const secret = await mintInPage('ci-week', () =>
      page
        .getByLabel('Expires', { exact: true })
        .selectOption({ label: 'In 7 days' })
        .then(() => {}),
    );
    const key = (await listed()).find((k) => k.name === 'ci-week');
    const expiresAt = Date.parse(key?.expiresAt ?? '');
    expect(expiresAt).toBeGreaterThanOrEqual(before + 7 * DAY - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 7 * DAY + 1000);

    const row = page.getByRole('row', { name: /ci-week/ });
    await expect.poll(() => row.innerText()).toContain('Expires in 7 days');
    expect(await row.locator('time').last().getAttribute('datetime')).toBe(key?.expiresAt);
    expect(await row.locator('.expiring-soon').count()).toBe(1);
    // The form is back to its default after the mint: the next key never expires unless asked.
    expect(await page.getByLabel('Expires', { exact: true }).inputValue()).toBe('');

    // Within 7 days of expiry, the API says so on the answers the key authenticates.
    const whoami = await server.fetch('/whoami', { headers: bearer(secret) });
    expect(whoami.status).toBe(200);
    expect(whoami.headers.get('drops-key-expiration')).toBe(key?.expiresAt);
  });

  it('mints with a date and time picked (in the browser time zone), and a key without expiry says Never', async () => {
    await mintInPage('release-2027', async () => {
      await page.getByLabel('Expires', { exact: true }).selectOption({ label: 'On a date…' });
      await page.getByLabel('Expiry date and time', { exact: true }).fill('2027-03-31T18:30');
    });
    await mintInPage('forever', async () => {});
    const keys = await listed();
    expect(keys.find((k) => k.name === 'release-2027')?.expiresAt).toBe('2027-03-31T18:30:00.000Z');
    expect(keys.find((k) => k.name === 'forever')?.expiresAt).toBeNull();
    // The custom field hides again once the form is reset.
    expect(await page.getByLabel('Expiry date and time', { exact: true }).isHidden()).toBe(true);

    const custom = page.getByRole('row', { name: /release-2027/ });
    await expect.poll(() => custom.innerText()).toMatch(/Expires in \d+ days/);
    expect(await custom.locator('.expiring-soon').count()).toBe(0);
    await expect.poll(() => page.getByRole('row', { name: /forever/ }).innerText()).toContain('Never');
  });

  it('refuses a date in the past in the page, and sends nothing', async () => {
    const before = (await listed()).length;
    await page.getByLabel('Key name', { exact: true }).fill('too-late');
    await page.getByLabel('Expires', { exact: true }).selectOption({ label: 'On a date…' });
    await page.getByLabel('Expiry date and time', { exact: true }).fill('2020-01-01T00:00');
    await page.getByRole('button', { name: 'Mint key' }).click();
    // The browser's own validation (min = now) stops the submit.
    expect(
      await page.getByLabel('Expiry date and time', { exact: true }).evaluate((el) => (el as HTMLInputElement).validity.rangeUnderflow),
    ).toBe(true);
    expect(await page.locator('#secret-panel').isHidden()).toBe(true);
    expect((await listed()).length).toBe(before);
    await page.getByLabel('Expires', { exact: true }).selectOption({ label: 'Never' });
    await page.getByLabel('Key name', { exact: true }).fill('');
  });

  it('shows a key that expired as Expired, and the API answers it 401', async () => {
    // Minted (by a script, with the ID token) to expire 2 s from now.
    const res = await server.fetch('/keys', {
      method: 'POST',
      headers: { ...bearer(await server.token('dana')), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'short-lived', expiresAt: new Date(Date.now() + 2000).toISOString() }),
    });
    expect(res.status).toBe(201);
    const { apiKey } = (await res.json()) as { apiKey: string };
    const row = page.getByRole('row', { name: /short-lived/ });
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh keys' }).click();
          return row.innerText();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toContain('Expired');
    await expect.poll(async () => (await server.fetch('/whoami', { headers: bearer(apiKey) })).status, { timeout: 20_000 }).toBe(401);
    expect(await page.locator('#alert').innerText()).toBe('');
    expect(consoleErrors).toEqual([]);
  });

  it('rolls a key: the new secret is shown once, both keys work during the overlap, and a key rolls only once', async () => {
    // Another account, signed in afresh.
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill('erin');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('No keys yet.').waitFor();
    const old = await mintInPage('deploy-main', async () => {});
    const oldId = (await listed('erin'))[0]!.id;

    const rollOld = page.getByRole('button', { name: `Roll key deploy-main (${old.slice(0, 10)}…)` });
    // Escape cancels: nothing rolled, focus back on the button.
    await rollOld.click();
    const dialog = page.getByRole('dialog', { name: /Roll key deploy-main/ });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await rollOld.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await listed('erin')).toHaveLength(1);

    await rollOld.click();
    await dialog.getByLabel('The old key keeps working for').selectOption({ label: '1 hour' });
    await dialog.getByRole('button', { name: 'Roll key' }).click();
    await expect.poll(() => page.getByLabel('API key', { exact: true }).inputValue()).toMatch(HP_KEY);
    const rolled = await page.getByLabel('API key', { exact: true }).inputValue();
    expect(rolled).not.toBe(old);
    erinSecrets.push(old, rolled);
    await expect.poll(activeId).toBe('secret');
    await expect.poll(statusText).toContain(`Key deploy-main (${rolled.slice(0, 10)}…) rolled`);
    expect(await statusText()).toContain('The old key keeps working for 1 hour.');

    // Both work during the overlap; the server says the new one replaces the old, which now expires in an hour.
    expect(await whoamiStatus(rolled)).toBe(200);
    expect(await whoamiStatus(old)).toBe(200);
    const keys = await listed('erin');
    expect(keys.map((k) => k.name)).toEqual(['deploy-main', 'deploy-main']);
    const oldListed = keys.find((k) => k.id === oldId)!;
    expect(Math.abs(Date.parse(oldListed.expiresAt ?? '') - (Date.now() + 3_600_000))).toBeLessThan(60_000);
    const oldRow = page.locator(`tr[data-key-id="${oldId}"]`);
    await expect.poll(() => oldRow.innerText()).toMatch(/Expires in (59|60) minutes/);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    expect(await page.locator('#secret').inputValue()).toBe('');

    // A key rolls once: the old key's row no longer offers Roll, and says it was rolled; the new one does.
    await expect.poll(() => rollOld.count()).toBe(0);
    expect(await oldRow.innerText()).toContain('Rolled');
    expect(await page.getByRole('button', { name: `Roll key deploy-main (${rolled.slice(0, 10)}…)` }).count()).toBe(1);
    // The key activity titles the roll and names the key that replaced the old one.
    const newId = (await listed('erin')).find((k) => k.id !== oldId)!.id;
    const activity = page.getByRole('list', { name: 'Key activity' });
    await expect
      .poll(() => activity.locator('li').filter({ hasText: 'Rolled' }).innerText())
      .toContain(`replaced by key ${newId.slice(0, 12)}…`);
    expect(await listed('erin')).toHaveLength(2);
  });

  it('revokes all keys once confirmed: the API then answers every one of them 401', async () => {
    const third = await mintInPage('nightly', async () => {});
    const secrets = [...erinSecrets, third];
    expect(secrets).toHaveLength(3);
    const revokeAll = page.getByRole('button', { name: 'Revoke all keys' });
    await revokeAll.click();
    const dialog = page.getByRole('dialog', { name: 'Revoke all 3 keys?' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await revokeAll.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await whoamiStatus(third)).toBe(200);

    await revokeAll.click();
    await dialog.getByRole('button', { name: 'Revoke all keys' }).click();
    await expect.poll(statusText).toBe('3 keys revoked. Requests made with them now get 401.');
    await page.getByText('No keys yet.').waitFor();
    await expect.poll(activeId).toBe('keys-heading');
    expect(await revokeAll.isHidden()).toBe(true);
    for (const secret of secrets) expect(await whoamiStatus(secret)).toBe(401);
    expect(await listed('erin')).toEqual([]);
    expect(consoleErrors.filter((e) => !e.includes('409'))).toEqual([]);
  });

  it('sets a webhook (the whsec_ secret shown once), a mint then arrives signed with it, and removes it', async () => {
    const receiver = await LocalWebhookReceiver.start();
    try {
      const current = page.locator('#webhook-current');
      await expect.poll(() => current.innerText()).toContain('No webhook');
      expect(await page.getByRole('button', { name: 'Remove webhook' }).isHidden()).toBe(true);

      // A LAN address over http is refused by the server, said in the page, and nothing is set.
      await page.getByLabel('Endpoint URL', { exact: true }).fill('http://10.0.0.1/hooks');
      await page.getByRole('button', { name: 'Save webhook' }).click();
      await expect.poll(() => page.locator('#alert').innerText()).toContain('400');
      expect(await page.locator('#webhook-secret-panel').isHidden()).toBe(true);

      await page.getByLabel('Endpoint URL', { exact: true }).fill(receiver.url);
      await page.getByRole('button', { name: 'Save webhook' }).click();
      await expect.poll(activeId).toBe('webhook-secret');
      const secret = await page.getByLabel('Signing secret', { exact: true }).inputValue();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
      await expect.poll(statusText).toContain('cannot be shown again');
      await expect.poll(() => current.innerText()).toBe(`Sending key events to ${receiver.url}.`);
      const shown = await server.fetch('/keys/webhook', { headers: bearer(await server.token('erin')) });
      expect(await shown.json()).toEqual({ url: receiver.url, deliveries: { pending: 0, failed: 0, lastFailure: null } });
      expect(await page.locator('#webhook-failures').isHidden()).toBe(true);
      await page.locator('#webhook-secret-done').click();
      expect(await page.locator('#webhook-secret').inputValue()).toBe('');

      // A key minted in the page: its event arrives at the endpoint, verifiable with the secret shown.
      const hookedSecret = await mintInPage('hooked', async () => {});
      const id = (await listed('erin')).find((k) => k.name === 'hooked')!.id;
      const minted = async (): Promise<boolean> =>
        receiver.delivered.some((r: Received) => {
          const event = new Webhook(secret).verify(r.body, r.headers) as { type: string; data: { keyId: string } };
          return event.type === 'key.minted' && event.data.keyId === id;
        });
      await expect.poll(minted, { timeout: 20_000, interval: 250 }).toBe(true);
      for (const r of receiver.delivered) expect(r.body).not.toContain(hookedSecret);

      await page.getByRole('button', { name: 'Remove webhook' }).click();
      await expect.poll(() => current.innerText()).toContain('No webhook');
      const gone = await server.fetch('/keys/webhook', { headers: bearer(await server.token('erin')) });
      expect(await gone.json()).toEqual({ url: null });
    } finally {
      await receiver.close();
    }
  });

  it('says when deliveries to the webhook failed: how many, the last reason and when (never the secret)', async () => {
    const broken = await LocalWebhookReceiver.start({ answer: () => ({ status: 500 }) });
    try {
      await page.getByLabel('Endpoint URL', { exact: true }).fill(broken.url);
      await page.getByRole('button', { name: 'Save webhook' }).click();
      await expect.poll(activeId).toBe('webhook-secret');
      const secret = await page.getByLabel('Signing secret', { exact: true }).inputValue();
      await page.locator('#webhook-secret-done').click();
      await mintInPage('unheard', async () => {});
      // WEBHOOK_RETRY_SECONDS is 0,0,0: four attempts, then the delivery is kept dead.
      const state = async (): Promise<{ deliveries?: { failed: number; lastFailure: { at: string; reason: string } | null } }> =>
        (await server.fetch('/keys/webhook', { headers: bearer(await server.token('erin')) })).json() as never;
      await expect.poll(async () => (await state()).deliveries?.failed, { timeout: 20_000, interval: 250 }).toBe(1);
      expect(broken.received).toHaveLength(4);
      const lastFailure = (await state()).deliveries?.lastFailure;
      expect(lastFailure?.reason).toBe('answered 500');

      // The page reads the webhook when it starts: signed in afresh, the failure is shown.
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.getByLabel('Name', { exact: true }).fill('erin');
      await page.getByRole('button', { name: 'Sign in' }).click();
      const failures = page.locator('#webhook-failures');
      await expect.poll(() => failures.innerText()).toMatch(/^1 delivery failed \(last: answered 500, .+\)\.$/);
      expect(await failures.locator('time').getAttribute('datetime')).toBe(lastFailure?.at);
      expect(await page.locator('section[aria-labelledby="webhook-heading"]').innerText()).not.toContain(secret);

      await page.getByRole('button', { name: 'Remove webhook' }).click();
      await expect.poll(() => page.locator('#webhook-current').innerText()).toContain('No webhook');
      expect(await failures.isHidden()).toBe(true);
    } finally {
      await broken.close();
    }
  });

  it("signs out everywhere once confirmed: the page asks to sign in again, and its token is refused while the account's keys work", async () => {
    // The page's ID token, read off its own requests.
    let pageToken: string | null = null;
    page.on('request', (request) => {
      const authorization = request.headers()['authorization'];
      if (authorization?.startsWith('Bearer ') && !authorization.startsWith('Bearer hp_')) pageToken = authorization.slice(7);
    });
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill('gail');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const key = await mintInPage('kept', async () => {});
    expect(pageToken).not.toBeNull();
    const tokenStatus = async (): Promise<number> => (await server.fetch('/keys', { headers: bearer(pageToken!) })).status;
    expect(await tokenStatus()).toBe(200);

    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    const dialog = page.getByRole('dialog', { name: /Sign out/ });
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect.poll(activeId).toBe('sign-in-heading');
    expect(await tokenStatus()).toBe(401);
    expect(await whoamiStatus(key)).toBe(200);
  });
});
