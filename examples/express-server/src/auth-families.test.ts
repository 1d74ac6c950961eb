import { snapshotOf, UNIFORM_401, type AnswerSnapshot } from '@drops/auth/testing';
import { describe, expect, it } from 'vitest';
import { BACKENDS, bearer, useTestServer } from './testing/test-server.js';

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
  '/sessions',
  '/sessions/x',
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
    const seen: AnswerSnapshot[] = [];
    for (const path of FAMILY_PATHS) {
      for (const method of METHODS) {
        for (const headers of badCredentials) {
          seen.push(await snapshotOf(await s.fetch(path, { method, headers })));
        }
      }
    }
    // Wrong type: an API key minting a key.
    seen.push(await snapshotOf(await s.fetch('/keys', { method: 'POST', headers: bearer(live.apiKey) })));
    // Anonymous deploy asking for a name, and a bad credential on the anonymous route: the same 401.
    seen.push(await snapshotOf(await s.fetch('/deploy?name=mine', { method: 'POST', body: 'x' })));
    seen.push(await snapshotOf(await s.fetch('/deploy', { method: 'POST', body: 'x', headers: bearer(revoked.apiKey) })));
    seen.push(await snapshotOf(await s.fetch('/deploy', { method: 'POST', body: 'x', headers: { authorization: 'Basic Zm9v' } })));

    expect(seen).toHaveLength(FAMILY_PATHS.length * METHODS.length * badCredentials.length + 4);
    for (const snap of seen) expect(snap).toEqual(UNIFORM_401);
  }, 30_000); // some 500 requests in a row: past the 5 s default on a busy 2-core machine

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
