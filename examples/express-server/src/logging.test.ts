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

    const lines = s.logs.map(
      (l) => JSON.parse(l) as { req?: { id?: string; headers?: Record<string, string> }; res?: { statusCode: number }; auth?: unknown },
    );
    const requests = lines.filter((l) => l.req !== undefined);
    expect(requests.length).toBeGreaterThanOrEqual(7);
    for (const line of requests) expect(line.req!.id).toMatch(/\S/);
    const traced = requests.find((l) => l.req!.id === 'trace-123')!;
    expect(traced.res!.statusCode).toBe(401);
    expect(traced.req!.headers!['authorization']).toBe('[redacted]');
    // The reason for a refusal is logged (server side only).
    expect(traced.auth).toEqual({ code: 'ERR_UNAUTHENTICATED', reason: 'unknown_key' });
  });

  it('are one access line per request: id, method, route, status, duration, credential type and key id', async () => {
    const s = server();
    const token = (await (await s.fetch('/dev/token', { method: 'POST', body: '{"name":"access"}' })).json()) as { idToken: string };
    const { apiKey, id } = (await (await s.fetch('/keys', { method: 'POST', headers: bearer(token.idToken) })).json()) as {
      apiKey: string;
      id: string;
    };
    const already = s.logs.length;
    await s.fetch('/whoami', { headers: { ...bearer(apiKey), 'x-request-id': 'access-1' } });
    await s.fetch('/WhoAmI', { headers: { ...bearer(token.idToken), 'x-request-id': 'access-2' } });
    await s.fetch(`/keys/${'f'.repeat(64)}`, { method: 'DELETE', headers: { ...bearer(apiKey), 'x-request-id': 'access-3' } });
    await s.fetch('/nowhere', { headers: { 'x-request-id': 'access-4' } });
    await new Promise((r) => setTimeout(r, 50));

    type Line = {
      msg: string;
      level: number;
      req: { id: string; method: string; url: string; route: string | null };
      res: { statusCode: number };
      responseTime: number;
      credential?: string;
      keyId?: string;
    };
    const lines = s.logs
      .slice(already)
      .map((l) => JSON.parse(l) as Line)
      .filter((l) => l.req?.id?.startsWith('access-'));
    expect(lines.map((l) => l.req.id)).toEqual(['access-1', 'access-2', 'access-3', 'access-4']);
    const [byKey, byToken, notFound, nowhere] = lines as [Line, Line, Line, Line];
    expect(byKey).toMatchObject({
      msg: 'request completed',
      level: 30,
      req: { method: 'GET', url: '/whoami', route: '/whoami' },
      res: { statusCode: 200 },
      credential: 'api_key',
      keyId: id,
    });
    expect(byKey.responseTime).toBeGreaterThan(0);
    expect(byToken).toMatchObject({ req: { url: '/WhoAmI', route: '/whoami' }, res: { statusCode: 200 }, credential: 'id_token' });
    expect(byToken.keyId).toBeUndefined();
    // An error answered after the router was left still names the route that answered.
    expect(notFound).toMatchObject({
      req: { method: 'DELETE', route: '/keys/:id' },
      res: { statusCode: 404 },
      credential: 'api_key',
      keyId: id,
    });
    expect(nowhere).toMatchObject({ req: { route: null }, res: { statusCode: 404 } });
    expect(nowhere.credential).toBeUndefined();
  });
});
