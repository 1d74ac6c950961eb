import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnauthenticatedError, UnavailableError } from '../errors/index.js';
import { LocalIdentityProvider, type OutageMode } from '../testing/local-identity-provider.js';
import { createIdTokenVerifier } from './create-id-token-verifier.js';
import type { IdTokenVerifier } from './id-token-claims.js';
import type { IdTokenVerifierOptions } from './id-token-verifier-options.js';

const T0 = 1_800_000_000_000; // ms
let nowMs = T0;
const clock = (): number => nowMs;
const SECOND = 1000;
const MINUTE = 60 * SECOND;

let idp: LocalIdentityProvider;
beforeEach(async () => {
  nowMs = T0;
  idp = await LocalIdentityProvider.start({ clock, maxAgeSeconds: 60 });
});
afterEach(() => idp.close());

/**
 * The key set fetch's time limit: room for a local provider on a loaded two-core machine (200 ms
 * timed out a first fetch in a CI rehearsal), and, for a provider that hangs, short enough to keep
 * the outage tests quick.
 */
const FETCH_TIMEOUT_MS = 5_000;
const HANG_TIMEOUT_MS = 1_000;

function verifierFor(extra: Partial<IdTokenVerifierOptions> = {}): IdTokenVerifier {
  return createIdTokenVerifier({ ...idp.verifierOptions, clock, fetchTimeoutMs: FETCH_TIMEOUT_MS, ...extra });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
}

async function expectUnavailable(promise: Promise<unknown>): Promise<void> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(UnavailableError);
  expect(error).toMatchObject({ status: 503, dependency: 'identity_provider' });
}

describe('RemoteKeySet: caching', () => {
  it('keeps the key set for the Cache-Control max-age, then refetches', async () => {
    const verifier = verifierFor();
    await verifier.verify(idp.mintIdToken({ sub: 'a' }));
    expect(idp.fetchCount).toBe(1);
    nowMs = T0 + 59 * SECOND;
    await verifier.verify(idp.mintIdToken({ sub: 'b' }));
    expect(idp.fetchCount).toBe(1);
    nowMs = T0 + 61 * SECOND;
    await verifier.verify(idp.mintIdToken({ sub: 'c' }));
    expect(idp.fetchCount).toBe(2);
  });

  it('falls back to defaultMaxAgeMs without Cache-Control', async () => {
    idp.maxAgeSeconds = null;
    const verifier = verifierFor({ defaultMaxAgeMs: 10 * MINUTE });
    await verifier.verify(idp.mintIdToken({ sub: 'a' }));
    nowMs = T0 + 9 * MINUTE;
    await verifier.verify(idp.mintIdToken({ sub: 'b' }));
    expect(idp.fetchCount).toBe(1);
    nowMs = T0 + 11 * MINUTE;
    await verifier.verify(idp.mintIdToken({ sub: 'c' }));
    expect(idp.fetchCount).toBe(2);
  });

  it('warmUp fetches now, so the first verification does not', async () => {
    const verifier = verifierFor();
    await verifier.warmUp();
    expect(idp.fetchCount).toBe(1);
    await verifier.verify(idp.mintIdToken());
    expect(idp.fetchCount).toBe(1);
  });

  it('makes one fetch for 100 concurrent first verifications', async () => {
    const verifier = verifierFor();
    const tokens = Array.from({ length: 100 }, (_, i) => idp.mintIdToken({ sub: `u${i}` }));
    const claims = await Promise.all(tokens.map((t) => verifier.verify(t)));
    expect(claims.map((c) => c.sub)).toEqual(tokens.map((_, i) => `u${i}`));
    expect(idp.fetchCount).toBe(1);
  });
});

describe('RemoteKeySet: rotation and unknown kids', () => {
  it('accepts a new kid after a refetch', async () => {
    const verifier = verifierFor();
    await verifier.warmUp();
    const { kid } = await idp.rotateKeys();
    await expect(verifier.verify(idp.mintIdToken({}, { kid }))).resolves.toMatchObject({ sub: 'local-user' });
    expect(idp.fetchCount).toBe(2);
  });

  it('refuses a token signed by a key removed from the set, once the key set is refreshed', async () => {
    const verifier = verifierFor();
    const retired = idp.currentKey;
    await verifier.verify(idp.mintIdToken({ sub: 'before' }));
    await idp.rotateKeys({ keepPrevious: false });
    nowMs = T0 + 61 * SECOND;
    const signedByRetired = idp.mintIdToken({ sub: 'after' }, { kid: retired.kid, key: retired.privateKey });
    await expect(verifier.verify(signedByRetired)).rejects.toMatchObject({ status: 401 });
    expect(idp.fetchCount).toBe(2);
  });

  it('100 concurrent verifications with an unknown kid make exactly one fetch, then 401', async () => {
    const verifier = verifierFor();
    await verifier.warmUp();
    const tokens = Array.from({ length: 100 }, (_, i) => idp.mintIdToken({ sub: `u${i}` }, { kid: 'unknown-kid' }));
    const errors = await Promise.all(tokens.map((t) => rejection(verifier.verify(t))));
    expect(idp.fetchCount).toBe(2);
    for (const e of errors) expect(e).toMatchObject({ status: 401, reason: 'invalid_token' });
  });

  it('refetches for an unknown kid at most once per cooldown', async () => {
    const verifier = verifierFor({ unknownKidCooldownMs: 30 * SECOND });
    await verifier.warmUp();
    const bad = (): string => idp.mintIdToken({}, { kid: `unknown-${Math.random()}` });
    await expect(verifier.verify(bad())).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(idp.fetchCount).toBe(2);
    nowMs = T0 + 20 * SECOND;
    await expect(verifier.verify(bad())).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(idp.fetchCount).toBe(2);
    nowMs = T0 + 31 * SECOND;
    await expect(verifier.verify(bad())).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(idp.fetchCount).toBe(3);
  });

  it('finds a kid rotated in during the cooldown once the cooldown is over', async () => {
    const verifier = verifierFor({ unknownKidCooldownMs: 30 * SECOND });
    await verifier.warmUp();
    await expect(verifier.verify(idp.mintIdToken({}, { kid: 'nope' }))).rejects.toBeInstanceOf(UnauthenticatedError);
    const { kid } = await idp.rotateKeys();
    nowMs = T0 + 10 * SECOND;
    await expect(verifier.verify(idp.mintIdToken({}, { kid }))).rejects.toBeInstanceOf(UnauthenticatedError);
    nowMs = T0 + 31 * SECOND;
    await expect(verifier.verify(idp.mintIdToken({}, { kid }))).resolves.toBeDefined();
  });
});

describe('RemoteKeySet: outages', () => {
  const modes: OutageMode[] = ['down', 'hang', 'garbage', 'error500'];

  for (const mode of modes) {
    const fetchTimeoutMs = mode === 'hang' ? HANG_TIMEOUT_MS : FETCH_TIMEOUT_MS;
    it(`${mode}: serves the last good keys within the stale window, then answers 503`, async () => {
      const verifier = verifierFor({ staleWhileErrorMs: 10 * MINUTE, fetchTimeoutMs });
      await verifier.warmUp();
      idp.simulateOutage(mode);
      nowMs = T0 + 2 * MINUTE; // past max-age (60 s): a refresh is due and fails
      await expect(verifier.verify(idp.mintIdToken({ sub: 'a' }))).resolves.toMatchObject({ sub: 'a' });
      expect(idp.fetchCount).toBe(2);
      nowMs = T0 + 60 * SECOND + 10 * MINUTE - 1;
      await expect(verifier.verify(idp.mintIdToken({ sub: 'b' }))).resolves.toMatchObject({ sub: 'b' });
      nowMs = T0 + 60 * SECOND + 10 * MINUTE + 1;
      await expectUnavailable(verifier.verify(idp.mintIdToken({ sub: 'c' })));
    });

    it(`${mode}: with no keys ever fetched answers 503, and recovers when the outage ends`, async () => {
      const verifier = verifierFor({ fetchTimeoutMs });
      idp.simulateOutage(mode);
      const token = idp.mintIdToken();
      await expectUnavailable(verifier.verify(token));
      await expectUnavailable(verifier.warmUp());
      idp.simulateOutage(null);
      nowMs = T0 + 2 * SECOND;
      await expect(verifier.verify(token)).resolves.toMatchObject({ sub: 'local-user' });
    });
  }

  it('does not refetch on every request while the provider is down', async () => {
    const verifier = verifierFor();
    await verifier.warmUp();
    idp.simulateOutage('error500');
    nowMs = T0 + 2 * MINUTE;
    for (let i = 0; i < 20; i++) await verifier.verify(idp.mintIdToken({ sub: `u${i}` }));
    expect(idp.fetchCount).toBe(2);
  });

  it('an unknown kid while the refresh fails is unavailable, not a bad token', async () => {
    const verifier = verifierFor();
    await verifier.warmUp();
    idp.simulateOutage('down');
    await expectUnavailable(verifier.verify(idp.mintIdToken({}, { kid: 'new-kid' })));
  });
});

describe('RemoteKeySet: redirects', () => {
  it('never follows a redirect of the key set URL: the provider is unavailable (503)', async () => {
    const { createServer } = await import('node:http');
    const redirector = createServer((_req, res) => res.writeHead(302, { location: idp.jwksUrl }).end());
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = redirector.address() as import('node:net').AddressInfo;
      const verifier = verifierFor({ jwksUrl: `http://127.0.0.1:${port}/jwks` });
      await expectUnavailable(verifier.verify(idp.mintIdToken({ sub: 'a' })));
      expect(idp.fetchCount).toBe(0);
    } finally {
      await new Promise((resolve) => redirector.close(resolve));
    }
  });
});
