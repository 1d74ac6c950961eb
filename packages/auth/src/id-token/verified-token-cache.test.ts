import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnauthenticatedError } from '../errors/index.js';
import { LocalIdentityProvider } from '../testing/local-identity-provider.js';
import { cachedVerificationOf } from './cached-verification.js';
import { createIdTokenVerifier } from './create-id-token-verifier.js';
import type { IdTokenVerifier } from './id-token-claims.js';
import { VerifiedTokenCache, type VerifiedToken } from './verified-token-cache.js';

const T0 = 1_800_000_000_000;
let nowMs = T0;
const clock = (): number => nowMs;

describe('VerifiedTokenCache', () => {
  const entry = (kid: string): VerifiedToken => ({ kid, alg: 'RS256', claims: {} as never, key: {} as never });

  it('evicts the least recently used entry beyond its size', () => {
    const cache = new VerifiedTokenCache(2);
    cache.set('a', entry('a'));
    cache.set('b', entry('b'));
    cache.get('a'); // a is now the most recent
    cache.set('c', entry('c'));
    expect([cache.get('a')?.kid, cache.get('b'), cache.get('c')?.kid]).toEqual(['a', undefined, 'c']);
    expect(cache.size).toBe(2);
  });

  it('frees the place of a deleted token: size others fit', () => {
    const cache = new VerifiedTokenCache(2);
    cache.set('a', entry('a'));
    cache.set('b', entry('b'));
    cache.delete('a');
    cache.set('c', entry('c'));
    expect([cache.size, cache.get('a'), cache.get('b')?.kid, cache.get('c')?.kid]).toEqual([2, undefined, 'b', 'c']);
  });

  it('answers only the whole token: one that ends the same is not it, and its delete keeps the other', () => {
    const cache = new VerifiedTokenCache(2);
    const end = 's'.repeat(40); // longer than the part a token is placed by
    cache.set(`a.${end}`, entry('a'));
    expect(cache.get(`b.${end}`)).toBeUndefined();
    cache.delete(`b.${end}`);
    expect(cache.get(`a.${end}`)?.kid).toBe('a');
  });

  it('remembers nothing with size 0', () => {
    const cache = new VerifiedTokenCache(0);
    cache.set('a', entry('a'));
    expect(cache.get('a')).toBeUndefined();
  });
});

describe('createIdTokenVerifier: a repeated token', () => {
  let idp: LocalIdentityProvider;
  let verifier: IdTokenVerifier;
  beforeEach(async () => {
    nowMs = T0;
    idp = await LocalIdentityProvider.start({ clock, maxAgeSeconds: 60 });
    verifier = createIdTokenVerifier({ ...idp.verifierOptions, clock, clockToleranceSeconds: 5 });
    await verifier.warmUp();
  });
  afterEach(() => idp.close());

  it('answers a repeat from the cache: the same frozen claims', async () => {
    const token = idp.mintIdToken({ sub: 'dash' });
    const first = await verifier.verify(token);
    const second = await verifier.verify(token);
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.firebase)).toBe(true);
  });

  it('never accepts a cached token past its exp', async () => {
    const token = idp.mintIdToken({}, { expiresInSeconds: 600 });
    await verifier.verify(token);
    nowMs = T0 + (600 + 4) * 1000; // within the tolerance
    await expect(verifier.verify(token)).resolves.toBeDefined();
    nowMs = T0 + (600 + 5) * 1000;
    await expect(verifier.verify(token)).rejects.toMatchObject({ status: 401, reason: 'expired_token' });
    // and it stays refused
    await expect(verifier.verify(token)).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('never accepts a cached token once its kid is dropped, found by a refresh at max-age', async () => {
    const token = idp.mintIdToken({ sub: 'dash' });
    await verifier.verify(token);
    await idp.rotateKeys({ keepPrevious: false });
    nowMs = T0 + 30_000; // key set still fresh: the kid is still published as far as we know
    await expect(verifier.verify(token)).resolves.toBeDefined();
    nowMs = T0 + 61_000; // refresh due: the kid is gone
    await expect(verifier.verify(token)).rejects.toMatchObject({ status: 401, reason: 'invalid_token' });
  });

  it('never accepts a cached token once its kid is dropped, found through a new kid', async () => {
    const token = idp.mintIdToken({ sub: 'dash' });
    await verifier.verify(token);
    const { kid } = await idp.rotateKeys({ keepPrevious: false });
    await verifier.verify(idp.mintIdToken({}, { kid })); // unknown kid: refetch, old kid gone
    expect(idp.fetchCount).toBe(2);
    await expect(verifier.verify(token)).rejects.toMatchObject({ status: 401 });
  });

  it('never accepts a cached token once its kid names another key', async () => {
    const token = idp.mintIdToken({ sub: 'dash' });
    await verifier.verify(token);
    await idp.rotateKeys({ kid: idp.currentKid }); // same kid, new key material
    nowMs = T0 + 61_000;
    await expect(verifier.verify(token)).rejects.toMatchObject({ status: 401, reason: 'invalid_token' });
    await expect(verifier.verify(idp.mintIdToken({ sub: 'new' }))).resolves.toMatchObject({ sub: 'new' });
  });

  it('keeps a cached token valid across a refresh that keeps its key', async () => {
    const token = idp.mintIdToken({ sub: 'dash' });
    const first = await verifier.verify(token);
    await idp.rotateKeys({ keepPrevious: true });
    nowMs = T0 + 61_000;
    await expect(verifier.verify(token)).resolves.toBe(first);
    expect(idp.fetchCount).toBe(2);
  });

  it('does not let a different token ride on a cached one', async () => {
    const token = idp.mintIdToken({ sub: 'dash' });
    await verifier.verify(token);
    const [h, , s] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()), sub: 'admin' })).toString('base64url')}.${s}`;
    await expect(verifier.verify(forged)).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it("does not answer a different token from the authenticator's cached path either", async () => {
    const token = idp.mintIdToken({ sub: 'dash' });
    await verifier.verify(token);
    const verifyCached = cachedVerificationOf(verifier)!;
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...payload, sub: 'admin' })).toString('base64url')}.${s}`;
    expect(verifyCached(forged)).toBeUndefined();
    expect(verifyCached(token)?.sub).toBe('dash');
  });
});
