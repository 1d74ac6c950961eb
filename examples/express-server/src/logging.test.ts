import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from './testing/test-server.js';

describe('request logs', () => {
  const server = useTestServer({ backend: 'postgres', idp: 'dev' });

  it('carry a request id, and never an API key, an ID token or an Authorization header', async () => {
    const s = server();
    const tokenRes = await s.fetch('/dev/token', { method: 'POST', body: '{"name":"logged"}' });
    const { idToken } = (await tokenRes.json()) as { idToken: string };
    const minted = await s.fetch('/keys', { method: 'POST', headers: bearer(idToken), body: '{"name":"ci"}' });
    const { apiKey, id, prefix } = (await minted.json()) as { apiKey: string; id: string; prefix: string };
    await s.fetch('/deploy?name=logged-site', { method: 'POST', headers: bearer(apiKey), body: 'x' });
    await s.fetch('/drops', { headers: bearer(apiKey) });
    await s.fetch(`/keys/${id}`, { method: 'DELETE', headers: bearer(apiKey) });
    const refused = await s.fetch('/drops', { headers: { ...bearer(apiKey), 'x-request-id': 'trace-123' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-request-id')).toBe('trace-123');
    // A secret-looking string where a request id goes is not trusted.
    const odd = await s.fetch('/healthz', { headers: { 'x-request-id': `bad id ${apiKey}` } });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    // Secrets where they do not belong are not logged either.
    await s.fetch(`/d/nothing?token=${apiKey}&id_token=${idToken}`);
    await s.fetch('/healthz', { headers: { 'x-api-key': apiKey, cookie: `session=${idToken}` } });

    await new Promise((r) => setTimeout(r, 50));
    const output = s.logs.join('');
    expect(output).not.toContain(apiKey);
    expect(output).not.toContain(apiKey.slice(3)); // the random part, without the hp_ marker
    expect(output).not.toContain(idToken);
    expect(output).not.toContain(idToken.split('.')[2]!); // the signature alone
    expect(output).not.toMatch(/Bearer (?!realm=)/i); // the challenge header is fine, a credential is not
    expect(prefix.length).toBe(10);

    const lines = s.logs.map((l) => JSON.parse(l) as { req?: { id?: string; headers?: Record<string, string> }; res?: { statusCode: number }; auth?: unknown });
    const requests = lines.filter((l) => l.req !== undefined);
    expect(requests.length).toBeGreaterThanOrEqual(7);
    for (const line of requests) expect(line.req!.id).toMatch(/\S/);
    const traced = requests.find((l) => l.req!.id === 'trace-123')!;
    expect(traced.res!.statusCode).toBe(401);
    expect(traced.req!.headers!['authorization']).toBe('[redacted]');
    // The reason for a refusal is logged (server side only).
    expect(traced.auth).toEqual({ code: 'ERR_UNAUTHENTICATED', reason: 'unknown_key' });
  });
});
