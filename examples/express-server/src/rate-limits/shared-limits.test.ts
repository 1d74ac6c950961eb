import { generateApiKey } from '@drops/auth';
import { describe, expect, it } from 'vitest';
import { bearer, type TestServer } from '../testing/test-server.js';
import { useTwoInstances } from '../testing/two-instances.js';

// Two instances on one PostgreSQL: every limit is counted once, in the database, whichever
// instance a request reaches. Each test acts from its own client address (TRUST_PROXY=loopback
// reads it from X-Forwarded-For), so the counts of one test never reach another's.
const instances = useTwoInstances({
  TRUST_PROXY: 'loopback',
  MINT_RATE_LIMIT: '5',
  MINT_RATE_WINDOW_SECONDS: '3600',
  REVOKE_BY_VALUE_LIMIT: '4',
  REVOKE_BY_VALUE_WINDOW_SECONDS: '3600',
  ANON_DEPLOY_LIMIT: '3',
  ANON_DEPLOY_WINDOW_SECONDS: '3600',
  AUTH_FAILURE_LIMIT: '3',
  AUTH_FAILURE_WINDOW_SECONDS: '3600',
});

const from = (address: string): Record<string, string> => ({ 'x-forwarded-for': address });

/** What a client sees of an answer: status, the headers that matter, the body's bytes. */
type Wire = { status: number; contentType: string | null; retryAfter: boolean; body: string };

async function wire(res: Response): Promise<Wire> {
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    retryAfter: /^\d+$/.test(res.headers.get('retry-after') ?? ''),
    body: await res.text(),
  };
}

describe('limits shared by two instances on one PostgreSQL', () => {
  it('MINT_RATE_LIMIT=5: the sixth mint of one account is a 429 on either instance', async () => {
    const { a, b, idp } = instances();
    const mint = (server: TestServer) =>
      server.fetch('/keys', { method: 'POST', headers: { ...bearer(idp.mintIdToken({ sub: 'mint-limited' })), ...from('198.51.100.10') } });
    const statuses: number[] = [];
    for (const server of [a, b, a, b, a]) statuses.push((await mint(server)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    for (const server of [b, a]) {
      const sixth = await wire(await mint(server));
      expect(sixth).toMatchObject({ status: 429, retryAfter: true });
    }
    // Another account is not limited.
    const other = await a.fetch('/keys', {
      method: 'POST',
      headers: { ...bearer(idp.mintIdToken({ sub: 'mint-free' })), ...from('198.51.100.10') },
    });
    expect(other.status).toBe(201);
  });

  it('REVOKE_BY_VALUE_LIMIT=4: the fifth revoke by value from one client is a 429 on either instance', async () => {
    const { a, b } = instances();
    const revoke = (server: TestServer, address: string) =>
      server.fetch('/credentials/revoke', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...from(address) },
        body: JSON.stringify({ credentials: [generateApiKey().secret] }),
      });
    const statuses: number[] = [];
    for (const server of [a, b, b, a]) statuses.push((await revoke(server, '198.51.100.20')).status);
    expect(statuses).toEqual([202, 202, 202, 202]);
    for (const server of [a, b]) expect(await wire(await revoke(server, '198.51.100.20'))).toMatchObject({ status: 429, retryAfter: true });
    expect((await revoke(b, '198.51.100.21')).status).toBe(202);
  });

  it('ANON_DEPLOY_LIMIT=3: the fourth anonymous deploy from one client is a 429 on either instance', async () => {
    const { a, b } = instances();
    const deploy = (server: TestServer, address: string) =>
      server.fetch('/deploy', { method: 'POST', headers: { 'content-type': 'text/plain', ...from(address) }, body: 'hello' });
    const statuses: number[] = [];
    for (const server of [b, a, b]) statuses.push((await deploy(server, '198.51.100.30')).status);
    expect(statuses).toEqual([201, 201, 201]);
    for (const server of [a, b]) {
      const limited = await wire(await deploy(server, '198.51.100.30'));
      expect(limited).toMatchObject({ status: 429, retryAfter: true, contentType: 'application/json; charset=utf-8' });
      expect(typeof (JSON.parse(limited.body) as { error: unknown }).error).toBe('string');
    }
    expect((await deploy(a, '198.51.100.31')).status).toBe(201);
  });

  it('AUTH_FAILURE_LIMIT=3: unknown and revoked keys count alike, then one 429 in the same bytes on either instance', async () => {
    const { a, b, idp } = instances();
    const revoked = await a.mintKey('failure-account');
    const del = await b.fetch(`/keys/${revoked.id}`, { method: 'DELETE', headers: bearer(idp.mintIdToken({ sub: 'failure-account' })) });
    expect(del.status).toBe(204);
    const live = await b.mintKey('live-account');
    const whoami = (server: TestServer, key: string, address: string) =>
      server.fetch('/whoami', { headers: { ...bearer(key), ...from(address) } });

    // One address fails with unknown keys, another with the revoked one: the same count for both.
    const unknownAnswers: Wire[] = [];
    const revokedAnswers: Wire[] = [];
    for (const server of [a, b, a, b]) {
      unknownAnswers.push(await wire(await whoami(server, generateApiKey().secret, '198.51.100.40')));
      revokedAnswers.push(await wire(await whoami(server, revoked.apiKey, '198.51.100.41')));
    }
    expect(unknownAnswers.map((w) => w.status)).toEqual([401, 401, 401, 429]);
    expect(revokedAnswers.map((w) => w.status)).toEqual([401, 401, 401, 429]);
    expect(unknownAnswers.slice(0, 3).every((w) => w.body === revokedAnswers[0]!.body)).toBe(true);

    // Past it: the same bytes on either instance, whatever the credential (a live key included).
    const past = [
      await wire(await whoami(a, generateApiKey().secret, '198.51.100.40')),
      await wire(await whoami(b, revoked.apiKey, '198.51.100.40')),
      await wire(await whoami(a, revoked.apiKey, '198.51.100.41')),
      await wire(await whoami(b, generateApiKey().secret, '198.51.100.41')),
      await wire(await whoami(b, live.apiKey, '198.51.100.41')),
      unknownAnswers[3]!,
      revokedAnswers[3]!,
    ];
    for (const answer of past) expect(answer).toEqual({ ...past[0], retryAfter: true });
    expect(past[0]).toMatchObject({ status: 429, contentType: 'application/json; charset=utf-8' });

    // Another address, and requests with no credential, are not limited.
    expect((await whoami(a, live.apiKey, '198.51.100.42')).status).toBe(200);
    expect((await b.fetch('/d/nothing-here', { headers: from('198.51.100.40') })).status).toBe(404);
  });

  it('AUTH_FAILURE_LIMIT counts and refuses only requests that carry a credential: none is the 401, before and past it', async () => {
    const { a, b } = instances();
    const bare = (server: TestServer) => server.fetch('/whoami', { headers: from('198.51.100.43') });
    const guess = (server: TestServer) =>
      server.fetch('/whoami', { headers: { ...bearer(generateApiKey().secret), ...from('198.51.100.43') } });
    for (const server of [a, b, a, b, a]) expect((await bare(server)).status).toBe(401); // not counted
    expect([(await guess(a)).status, (await guess(b)).status, (await guess(a)).status, (await guess(b)).status]).toEqual([
      401, 401, 401, 429,
    ]);
    expect([(await bare(a)).status, (await bare(b)).status]).toEqual([401, 401]);
  });
});
