import { LocalIdentityProvider, type LocalSigningKey, type OutageMode } from '@drops/auth/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppWithVerifier, type TestApp } from '../testing/start-app.js';
import { bearer, startTestServer, testClock, type TestClock } from '../testing/test-server.js';
import { snapshotOf, UNIFORM_401 } from '@drops/auth/testing';

const MAX_AGE_S = 60;
const STALE_WINDOW_MS = 10 * 60_000;
const UNKNOWN_KID_COOLDOWN_MS = 30_000;
const MODES: OutageMode[] = ['down', 'hang', 'garbage', 'error500'];

let clock: TestClock;
let idp: LocalIdentityProvider;
let app: TestApp;
let apiKey: string;

beforeAll(async () => {
  clock = testClock();
  idp = await LocalIdentityProvider.start({ clock: clock.now, maxAgeSeconds: MAX_AGE_S });
  app = await startAppWithVerifier(idp, clock, {
    fetchTimeoutMs: 300,
    staleWhileErrorMs: STALE_WINDOW_MS,
    unknownKidCooldownMs: UNKNOWN_KID_COOLDOWN_MS,
  });
  const minted = await app.fetch('/keys', { method: 'POST', headers: bearer(idp.mintIdToken({ sub: 'idp-user' })) });
  expect(minted.status).toBe(201);
  apiKey = ((await minted.json()) as { apiKey: string }).apiKey;
}, 60_000);
afterAll(async () => {
  idp?.simulateOutage(null);
  await app?.close();
  await idp?.close();
}, 30_000);

const whoami = (credential: string): Promise<Response> => app.fetch('/whoami', { headers: bearer(credential) });
/** A token never seen before (so no verified-token cache answers for it). */
let serial = 0;
const freshToken = (extra: Record<string, unknown> = {}, kid?: string | LocalSigningKey): string =>
  idp.mintIdToken(
    { sub: 'idp-user', nonce: ++serial, ...extra },
    kid === undefined ? {} : typeof kid === 'string' ? { kid } : { kid: kid.kid, key: kid.privateKey },
  );

async function expect503(res: Response): Promise<void> {
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(typeof ((await res.json()) as { error: unknown }).error).toBe('string');
}

describe.each(MODES)('the JWKS endpoint %s', (mode) => {
  it('keeps known keys working for the stale window, answers 503 for unknown kids and after the window, then recovers by itself', async () => {
    // Healthy: a fresh key set is in hand.
    clock.advance(MAX_AGE_S * 1000 + 2_000);
    expect((await whoami(freshToken())).status).toBe(200);
    const cached = freshToken();
    expect((await whoami(cached)).status).toBe(200);

    idp.simulateOutage(mode);
    const fetchesBefore = idp.fetchCount;
    clock.advance(MAX_AGE_S * 1000 + 1_000); // the key set is now stale; refreshing it fails
    expect((await whoami(freshToken())).status).toBe(200);
    expect(idp.fetchCount).toBeGreaterThan(fetchesBefore);
    expect((await whoami(cached)).status).toBe(200);
    // A kid the last good key set does not hold: it may be a rotation we cannot see; 503, never 401.
    await expect503(await whoami(freshToken({}, 'kid-during-outage')));
    // Tokens that are bad whatever the key set says are still the uniform 401.
    expect(await snapshotOf(await whoami(freshToken({ aud: 'someone-else' })))).toEqual(UNIFORM_401);
    // API keys do not depend on the identity provider.
    expect((await whoami(apiKey)).status).toBe(200);

    clock.advance(STALE_WINDOW_MS); // past the bounded stale window: no key can be trusted
    await expect503(await whoami(freshToken()));
    await expect503(await whoami(cached));
    await expect503(await app.fetch('/keys', { method: 'POST', headers: bearer(freshToken()) }));
    expect((await whoami(apiKey)).status).toBe(200);

    idp.simulateOutage(null);
    clock.advance(2_000); // past the retry pause after a failed fetch
    expect((await whoami(freshToken())).status).toBe(200);
    expect((await whoami(cached)).status).toBe(200);
    expect(await snapshotOf(await whoami(freshToken({}, 'no-such-kid')))).toEqual(UNIFORM_401);
  }, 30_000);
});

describe('key rotation at the identity provider', () => {
  it('accepts the new kid at once, keeps the old while published, and refuses it once removed', async () => {
    clock.advance(UNKNOWN_KID_COOLDOWN_MS + MAX_AGE_S * 1000);
    const oldKey = idp.currentKey;
    const old = freshToken();
    expect((await whoami(old)).status).toBe(200);

    await idp.rotateKeys();
    expect((await whoami(freshToken())).status).toBe(200); // unknown kid -> one refetch
    expect((await whoami(freshToken({}, oldKey))).status).toBe(200);
    expect((await whoami(old)).status).toBe(200);

    await idp.rotateKeys({ keepPrevious: false });
    clock.advance(UNKNOWN_KID_COOLDOWN_MS + 1_000);
    expect((await whoami(freshToken())).status).toBe(200);
    // The old key left the set: its tokens, even ones verified before, stop working.
    expect(await snapshotOf(await whoami(old))).toEqual(UNIFORM_401);
    expect(await snapshotOf(await whoami(freshToken({}, oldKey)))).toEqual(UNIFORM_401);
    expect((await whoami(apiKey)).status).toBe(200);
  }, 30_000);

  it('does not let a flood of unknown kids hammer the identity provider', async () => {
    clock.advance(UNKNOWN_KID_COOLDOWN_MS + 1_000);
    const before = idp.fetchCount;
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => whoami(freshToken({}, `flood-${i}`))));
    for (const res of answers) expect(await snapshotOf(res)).toEqual(UNIFORM_401);
    expect(idp.fetchCount - before).toBeLessThanOrEqual(1);
  });
});

describe('the configured server (AUTH_ISSUER, AUTH_AUDIENCE, AUTH_JWKS_URL) starting while the identity provider is down', () => {
  it('answers ID tokens with 503 (never 401) until the key set can be had, then works without a restart', async () => {
    const down = await LocalIdentityProvider.start();
    down.simulateOutage('error500');
    const s = await startTestServer({ backend: 'pglite', idp: down });
    try {
      const token = down.mintIdToken({ sub: 'early-user' });
      await expect503(await s.fetch('/whoami', { headers: bearer(token) }));
      await expect503(await s.fetch('/keys', { method: 'POST', headers: bearer(token) }));
      down.simulateOutage(null);
      // The verifier waits a moment after a failed fetch before trying again: poll, bounded.
      let status = 503;
      for (let i = 0; i < 100 && status === 503; i++) {
        await new Promise((r) => setTimeout(r, 50));
        status = (await s.fetch('/whoami', { headers: bearer(token) })).status;
      }
      expect(status).toBe(200);
      expect((await s.fetch('/keys', { method: 'POST', headers: bearer(token) })).status).toBe(201);
    } finally {
      await s.close();
      await down.close();
    }
  }, 60_000);
});
