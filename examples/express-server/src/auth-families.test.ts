import { UNAUTHENTICATED_MESSAGE } from '@drops/auth';
import { describe, expect, it } from 'vitest';
import { BACKENDS, bearer, useTestServer } from './testing/test-server.js';

interface Snapshot {
  status: number;
  body: string;
  headers: Record<string, string | null>;
}

async function snapshot(res: Response): Promise<Snapshot> {
  const body = Buffer.from(await res.arrayBuffer()).toString('hex');
  const headers: Record<string, string | null> = {};
  for (const name of ['content-type', 'content-length', 'www-authenticate', 'cache-control', 'allow', 'etag']) {
    headers[name] = res.headers.get(name);
  }
  return { status: res.status, body, headers };
}

// Every method on every path of every account family: without a valid credential, the one 401.
const FAMILY_PATHS = [
  '/keys',
  '/keys/',
  `/keys/${'a'.repeat(64)}`,
  '/keys/a/b/c',
  '/drops',
  '/drops/x',
  '/vanity',
  '/vanity/home',
  '/vanity/home/extra',
  '/billing',
  '/billing/plan',
  '/billing/invoices/2026',
  '/deploy/some-slug',
  '/deploy/some-slug/more',
  '/whoami',
  '/whoami/x',
];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

describe.each(BACKENDS)('authentication before routing (%s)', (backend) => {
  const server = useTestServer({ backend });

  it('answers byte-identical 401s for no, malformed, unknown, revoked, expired and wrong-type credentials on every family', async () => {
    const s = server();
    const revoked = await s.mintKey('family-user');
    const token = await s.token('family-user');
    expect((await s.fetch(`/keys/${revoked.id}`, { method: 'DELETE', headers: bearer(token) })).status).toBe(204);
    const live = await s.mintKey('family-user');

    const badCredentials: Array<Record<string, string>> = [
      {},
      { authorization: 'Token abc' },
      { authorization: 'Bearer ' },
      bearer(`hp_${'A'.repeat(43)}`),
      bearer(revoked.apiKey),
      bearer(s.idp!.mintIdToken({ sub: 'family-user' }, { expiresInSeconds: -120 })),
      bearer(s.idp!.mintIdToken({ sub: 'family-user', iss: 'https://evil.example' })),
    ];
    const seen: Snapshot[] = [];
    for (const path of FAMILY_PATHS) {
      for (const method of METHODS) {
        for (const headers of badCredentials) {
          seen.push(await snapshot(await s.fetch(path, { method, headers })));
        }
      }
    }
    // Wrong type: an API key minting a key.
    seen.push(await snapshot(await s.fetch('/keys', { method: 'POST', headers: bearer(live.apiKey) })));
    // Anonymous deploy asking for a name, and a bad credential on the anonymous route: the same 401.
    seen.push(await snapshot(await s.fetch('/deploy?name=mine', { method: 'POST', body: 'x' })));
    seen.push(await snapshot(await s.fetch('/deploy', { method: 'POST', body: 'x', headers: bearer(revoked.apiKey) })));
    seen.push(await snapshot(await s.fetch('/deploy', { method: 'POST', body: 'x', headers: { authorization: 'Basic Zm9v' } })));

    const first = seen[0]!;
    expect(first.status).toBe(401);
    expect(Buffer.from(first.body, 'hex').toString()).toBe(JSON.stringify({ error: UNAUTHENTICATED_MESSAGE }));
    expect(first.headers['www-authenticate']).toBe('Bearer realm="drops"');
    expect(seen).toHaveLength(FAMILY_PATHS.length * METHODS.length * badCredentials.length + 4);
    for (const snap of seen) expect(snap).toEqual(first);
  });

  it('routes only once authenticated: 404 and 405 are for callers with a valid credential', async () => {
    const s = server();
    const { apiKey } = await s.mintKey('router-user');
    const auth = bearer(apiKey);
    expect((await s.fetch('/billing/invoices', { headers: auth })).status).toBe(404);
    expect((await s.fetch('/drops', { method: 'DELETE', headers: auth })).status).toBe(405);
    expect((await s.fetch('/keys/a/b/c', { headers: auth })).status).toBe(404);
    expect((await s.fetch('/deploy/nope/deeper', { method: 'POST', headers: auth })).status).toBe(404);
    // Outside the account families, an unknown path is a plain JSON 404 for anyone.
    const unknown = await s.fetch('/nothing-here');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'not found' });
  });
});
