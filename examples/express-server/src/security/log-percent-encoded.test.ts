import { describe, expect, it } from 'vitest';
import { rawRequest } from '../testing/raw-http.js';
import { bearer, useTestServer } from '../testing/test-server.js';
import { decodedUntilStable } from '../testing/decoded-until-stable.js';

/** Every character of `text` as `%XX`, hex in `upper` or lower case. */
const encodedWhole = (text: string, upper: boolean): string =>
  [...text]
    .map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .map((e) => (upper ? e.toUpperCase() : e))
    .join('');

// A credential pasted into a URL percent-encoded (by a client library, a proxy, a script that
// encodes twice) is written to the access log and the request's other lines no more than one sent
// as it is: the real server's log output holds nothing that decodes to it.
describe('the access log and percent-encoded credentials', () => {
  const server = useTestServer({ backend: 'pglite', env: { LOG_LEVEL: 'trace' } });

  it('holds no API key or ID token however they were encoded in the path or the query', async () => {
    const s = server();
    const token = await s.token('encoded-user');
    const { apiKey } = await s.mintKey('encoded-user');
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const sent = [
      `/d/${apiKey.replace('_', '%5F')}`,
      `/d/x?key=${apiKey.replace('_', '%5f')}`,
      `/d/x?key=hp%255F${apiKey.slice(3)}`,
      `/keys/${encodedWhole(apiKey, true)}`,
      `/d/x?t=${header}%2E${payload}%2e${signature}`,
      `/d/x?t=${header}%252E${payload}%252E${signature}&next=%2F`,
      `/whoami?id_token=${encodedWhole(token, false)}`,
      `/d/${apiKey.slice(0, 20)}%${apiKey.charCodeAt(20).toString(16)}${apiKey.slice(21)}`,
    ];
    const host = new URL(s.url).host;
    for (const path of sent) {
      await s.fetch(path, { headers: { 'x-request-id': 'encoded' } });
      // Raw too: nothing between the client and the server normalises the escapes.
      await rawRequest(s.url, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    }
    await s.fetch('/whoami', { headers: bearer(apiKey) }); // one line that may carry the key's id
    await new Promise((r) => setTimeout(r, 50)); // let the logger's last writes land

    const lines = s.logs.filter((line) => line.includes('"encoded"'));
    expect(lines.length).toBeGreaterThanOrEqual(sent.length);
    const output = decodedUntilStable(s.logs.join('\n'));
    for (const secret of [apiKey, token, apiKey.slice(3), signature, payload]) expect(output).not.toContain(secret);
    expect(output).toContain('[redacted]');
  }, 60_000);
});
