import { generateKeyPairSync } from 'node:crypto';
import { authFailureCases, sendRawRequest, snapshotOf, UNIFORM_401, wireSnapshotOf } from '@drops/auth/testing';
import { expect, it } from 'vitest';
import { accountRoutes } from '../testing/account-routes.js';
import { badIdTokens } from '../testing/id-token-corpus.js';
import { bearer, useTestServer } from '../testing/test-server.js';

// The uniform 401 read off the socket: the status line, every header line in the order sent and
// the body bytes; only Date, X-Request-Id and Connection/Keep-Alive may differ.
const server = useTestServer({ backend: 'pglite' });

it('answers every authentication failure with the same bytes, header order included, on every account route', async () => {
  const s = server();
  const revoked = await s.mintKey('wire-user');
  const token = await s.token('wire-user');
  expect((await s.fetch(`/keys/${revoked.id}`, { method: 'DELETE', headers: bearer(token) })).status).toBe(204);
  const live = await s.mintKey('wire-user');
  const deployed = await s.fetch('/deploy?name=wire-site', { method: 'POST', headers: bearer(token), body: 'x' });
  expect(deployed.status).toBe(201);

  const cases = [
    ...authFailureCases({ idp: s.idp!, revokedApiKey: revoked.apiKey, sub: 'wire-user' }),
    ...badIdTokens(s.idp!, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, 'wire-user').map(({ name, token: bad }) => ({
      cause: `ID token corpus: ${name}`,
      headers: [['Authorization', `Bearer ${bad}`]] as const,
    })),
  ];
  const answers: Array<[string, string]> = [];
  for (const route of accountRoutes('wire-site', live.id)) {
    for (const { cause, headers } of cases) {
      // POST /deploy serves anonymous callers: no header at all is not a failure there.
      if (route.method === 'POST' && route.path === '/deploy' && headers.length === 0) continue;
      const res = await sendRawRequest(s.url, route.method, route.path, headers, route.body);
      answers.push([`${cause} on ${route.method} ${route.path}`, wireSnapshotOf(res)]);
    }
  }
  // Wrong credential type: an API key minting, with a body and with a bad one.
  for (const body of ['{"name":"x"}', 'not json']) {
    const res = await sendRawRequest(s.url, 'POST', '/keys', [['Authorization', `Bearer ${live.apiKey}`]], body);
    answers.push([`wrong credential type on POST /keys (${body})`, wireSnapshotOf(res)]);
  }

  const first = await sendRawRequest(s.url, 'GET', '/whoami');
  const expected = wireSnapshotOf(first);
  const different = answers.filter(([, wire]) => wire !== expected);
  expect(different.map(([what, wire]) => `${what}:\n${wire}`)).toEqual([]);
  expect(await snapshotOf(first)).toEqual(UNIFORM_401);
}, 120_000);
