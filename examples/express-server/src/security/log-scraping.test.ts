import { describe, expect, it } from 'vitest';
import { rawRequest } from '../testing/raw-http.js';
import { useProxiedServer } from '../testing/proxied-server.js';
import { bearer } from '../testing/test-server.js';

// Someone who can read the server's logs must find no credential in them, whatever the clients
// sent and wherever they put it, including on error and outage paths.
describe('log scraping', () => {
  const proxied = useProxiedServer({ LOG_LEVEL: 'trace' });

  it('holds no API key or ID token after attack, misuse, error and outage traffic', async () => {
    const { s, proxy } = proxied();
    const token = await s.token('log-user');
    const { apiKey, id } = await s.mintKey('log-user');
    const unknownKey = `hp_${'Z'.repeat(43)}`;
    const host = new URL(s.url).host;
    const raw = (lines: string[], path = '/whoami', method = 'GET'): Promise<unknown> =>
      rawRequest(s.url, `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\n${lines.map((l) => `${l}\r\n`).join('')}Connection: close\r\n\r\n`);

    // Credentials where they belong, and where they do not.
    await s.fetch('/whoami', { headers: bearer(apiKey) });
    await s.fetch('/whoami', { headers: bearer(token) });
    await s.fetch('/whoami', { headers: bearer(`${token}x`) });
    await s.fetch('/whoami', { headers: { authorization: `Basic ${Buffer.from(`user:${apiKey}`).toString('base64')}` } });
    await raw([`Authorization: Bearer ${apiKey}`, `Authorization: Bearer ${token}`]);
    await raw([`Authorization: Bearer ${apiKey}\r\nX-Injected: ${token}`]);
    for (const header of ['user-agent', 'x-forwarded-for', 'content-type', 'x-request-id', 'referer', 'x-api-key', 'proxy-authorization']) {
      await s.fetch('/whoami', { headers: { [header]: `${header === 'proxy-authorization' ? 'Bearer ' : ''}${apiKey} ${token}` } });
    }
    await s.fetch(`/d/${apiKey}`);
    await s.fetch(`/d/x?key=${apiKey}&t=${token}`);
    await s.fetch(`/keys/${apiKey}`, { method: 'DELETE', headers: bearer(token) });
    await s.fetch(`/deploy/${token}`, { method: 'POST', headers: bearer(apiKey), body: apiKey });
    await s.fetch('/keys', {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: `{"name": "${apiKey}"`,
    });
    await s.fetch('/keys', { method: 'POST', headers: bearer(token), body: JSON.stringify({ name: apiKey }) });
    await s.fetch('/deploy', { method: 'POST', headers: bearer(unknownKey), body: 'x' });
    await s.fetch('/whoami', { headers: bearer(apiKey.toUpperCase()) });
    // Outage: the 503 paths log their cause.
    await proxy.cut();
    await s.fetch('/whoami', { headers: bearer(apiKey) });
    await s.fetch('/drops', { headers: bearer(token) });
    await s.fetch('/healthz');
    await proxy.restore();
    await s.fetch(`/keys/${id}`, { method: 'DELETE', headers: bearer(apiKey) });
    await s.fetch('/whoami', { headers: bearer(apiKey) });
    await new Promise((r) => setTimeout(r, 50)); // let the logger's last writes land

    const output = s.logs.join('\n');
    expect(s.logs.length).toBeGreaterThan(20);
    for (const secret of [apiKey, unknownKey, token]) {
      expect(output).not.toContain(secret);
      expect(output).not.toContain(secret.slice(3, 30)); // any long piece of it
      expect(output.toLowerCase()).not.toContain(secret.slice(-24).toLowerCase());
    }
    expect(output).not.toContain(token.split('.')[2]!);
    expect(output).not.toContain(Buffer.from(`user:${apiKey}`).toString('base64').slice(8, 40));
    expect(output).not.toMatch(/Bearer (?!realm=)/i);
    // What may be logged: the key's id and prefix.
    expect(output).toContain(id);
  }, 60_000);
});
