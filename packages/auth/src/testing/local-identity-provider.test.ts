import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdTokenVerifier } from '../id-token/create-id-token-verifier.js';
import { createLocalIdentityProvider, LocalIdentityProvider, signWith } from './local-identity-provider.js';

function decode(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [h = '', p = ''] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(h, 'base64url').toString()),
    payload: JSON.parse(Buffer.from(p, 'base64url').toString()),
  };
}

describe('LocalIdentityProvider', () => {
  let idp: LocalIdentityProvider;
  beforeAll(async () => {
    idp = await LocalIdentityProvider.start({ audience: 'my-app', maxAgeSeconds: 120, clock: () => 1_700_000_000_000 });
  });
  afterAll(() => idp.close());

  it('refuses an option it does not know', async () => {
    await expect(LocalIdentityProvider.start({ audiences: ['x'] } as never)).rejects.toThrow(
      new TypeError('LocalIdentityProvider.start: options: unknown option "audiences"'),
    );
  });

  it('serves its JWKS on loopback with Cache-Control', async () => {
    expect(idp.jwksUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\.well-known\/jwks\.json$/);
    const before = idp.fetchCount;
    const res = await fetch(idp.jwksUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=120');
    const body = (await res.json()) as { keys: Record<string, unknown>[] };
    expect(body.keys).toEqual([expect.objectContaining({ kty: 'RSA', kid: idp.currentKid, use: 'sig', alg: 'RS256' })]);
    expect(body.keys[0]).not.toHaveProperty('d');
    expect(idp.fetchCount).toBe(before + 1);
  });

  it('mints Firebase-shaped tokens with defaults and overrides', () => {
    const { header, payload } = decode(idp.mintIdToken({ sub: 'u1', email: 'a@b.c', auth_time: undefined }));
    expect(header).toEqual({ alg: 'RS256', typ: 'JWT', kid: idp.currentKid });
    expect(payload).toEqual({
      iss: idp.issuer,
      aud: 'my-app',
      sub: 'u1',
      iat: 1_700_000_000,
      exp: 1_700_003_600,
      email: 'a@b.c',
      firebase: { identities: {}, sign_in_provider: 'google.com' },
    });
    expect(decode(idp.mintIdToken({}, { expiresInSeconds: 60, header: { typ: undefined, x: 1 } }))).toMatchObject({
      header: { alg: 'RS256', kid: idp.currentKid, x: 1 },
      payload: { exp: 1_700_000_060 },
    });
  });

  it('builds attack tokens with signWith', () => {
    expect(signWith.none({ alg: 'none' }, { sub: 'x' }).endsWith('.')).toBe(true);
    expect(signWith.hs256('secret', { alg: 'HS256' }, {}).split('.')).toHaveLength(3);
    expect(idp.publicKeyPem).toContain('BEGIN PUBLIC KEY');
  });

  it('answers 404 off the JWKS path', async () => {
    const res = await fetch(new URL('/other', idp.jwksUrl));
    expect(res.status).toBe(404);
  });
});

describe('LocalIdentityProvider: rotation and outages, through a verifier', () => {
  it('verifies its tokens, rotates, and simulates each outage', async () => {
    const idp = await createLocalIdentityProvider();
    try {
      // A healthy local provider: room for a loaded machine (the outages below are probed by a raw fetch).
      const verifier = createIdTokenVerifier({ ...idp.verifierOptions, fetchTimeoutMs: 5_000 });
      await expect(verifier.verify(idp.mintIdToken({ sub: 'x' }))).resolves.toMatchObject({ sub: 'x' });

      const first = idp.currentKid;
      const second = await idp.rotateKeys();
      expect(idp.keys.map((k) => k.kid)).toEqual([first, second.kid]);
      await idp.rotateKeys({ keepPrevious: false });
      expect(idp.keys).toHaveLength(1);

      for (const mode of ['down', 'hang', 'garbage', 'error500'] as const) {
        idp.simulateOutage(mode);
        const ok = await fetch(idp.jwksUrl, { signal: AbortSignal.timeout(100) })
          .then(async (r) => r.ok && Array.isArray(((await r.json()) as { keys?: unknown }).keys))
          .catch(() => false);
        expect(ok, mode).toBe(false);
      }
      idp.simulateOutage(null);
      expect((await fetch(idp.jwksUrl)).ok).toBe(true);
    } finally {
      await idp.close();
    }
  });

  it('close() ends even with a hanging request', async () => {
    const idp = await LocalIdentityProvider.start();
    idp.simulateOutage('hang');
    const pending = fetch(idp.jwksUrl).catch(() => 'cut');
    await new Promise((r) => setTimeout(r, 20));
    await idp.close();
    expect(await pending).toBe('cut');
  });
});
