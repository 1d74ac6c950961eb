import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountRoutes, type AccountRoute } from '../testing/account-routes.js';
import { badIdTokens } from '../testing/id-token-corpus.js';
import { bearer, startTestServer, type TestServer } from '../testing/test-server.js';
import { snapshotOf, UNIFORM_401 } from '@drops/auth/testing';

// Forged, expired and misconfigured ID tokens, over real HTTP, on every account route.
describe('the ID token corpus against every account route', () => {
  let s: TestServer;
  let foreignKey: KeyObject;
  let routes: AccountRoute[];

  beforeAll(async () => {
    s = await startTestServer({ backend: 'pglite' });
    foreignKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const { id } = await s.mintKey('corpus-user');
    const token = await s.token('corpus-user');
    const deployed = await s.fetch('/deploy?name=corpus-site', { method: 'POST', headers: bearer(token), body: 'x' });
    expect(deployed.status).toBe(201);
    routes = accountRoutes('corpus-site', id);
  }, 60_000);
  afterAll(() => s?.close(), 30_000);

  const send = (route: AccountRoute, credential: string): Promise<Response> =>
    s.fetch(route.path, { method: route.method, headers: bearer(credential), ...(route.body !== undefined ? { body: route.body } : {}) });

  it('answers every bad token with the byte-identical 401 on every route, and changes nothing', async () => {
    const corpus = badIdTokens(s.idp!, foreignKey);
    expect(corpus.length).toBeGreaterThanOrEqual(45);
    const failures: string[] = [];
    for (const { name, token } of corpus) {
      for (const route of routes) {
        const snap = await snapshotOf(await send(route, token));
        if (JSON.stringify(snap) !== JSON.stringify(UNIFORM_401)) {
          failures.push(`${name} on ${route.method} ${route.path}: ${snap.status} ${Buffer.from(snap.body, 'hex').toString()}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // Nothing was minted, revoked, deployed or named by any of them.
    const token = await s.token('corpus-user');
    const keys = (await (await s.fetch('/keys', { headers: bearer(token) })).json()) as { keys: unknown[] };
    expect(keys.keys).toHaveLength(1);
    expect(await (await s.fetch('/d/corpus-site')).text()).toBe('x');
    expect((await s.fetch('/v/attack')).status).toBe(404);
    for (const sub of ['admin', 'a', 'b', '42']) {
      const listed = (await (await s.fetch('/keys', { headers: bearer(await s.token(sub)) })).json()) as { keys: unknown[] };
      expect(listed.keys).toEqual([]);
    }
  }, 120_000);

  it('accepts a valid token on the same routes (the corpus is refused for its flaw, not for the route)', async () => {
    for (const route of routes) {
      const res = await send(route, await s.token('corpus-user'));
      expect(res.status, `${route.method} ${route.path}`).toBeLessThan(300);
    }
  }, 60_000);
});
