import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnauthenticatedError, UnavailableError } from '../errors/index.js';
import { LocalKeyServer } from '../testing/local-key-server.js';
import { createIdTokenVerifier } from './create-id-token-verifier.js';
import type { IdTokenVerifierOptions } from './id-token-verifier-options.js';
import type { JwsAlgorithm } from './jws-algorithms.js';
import { oidc } from './presets.js';

// `oidc({ issuer, audience })` against local discovery documents shaped like those of seven
// providers (issuer spelling, jwks_uri placement, advertised algorithms, token shape), each on
// loopback. The configurations here are the ones docs/id-tokens.md shows. Both builds.

const T = 1_800_000_000;
let nowMs = T * 1000;
const clock = (): number => nowMs;

interface ProviderShape {
  /** The issuer's path on the local origin (Auth0's ends with a slash, as Auth0's issuer does). */
  readonly issuerPath: string;
  /** Where the JWKS is, relative to the JWKS server (another origin, as Google's is). */
  readonly jwksPath: string;
  readonly advertised: readonly string[];
  readonly alg: JwsAlgorithm;
  readonly audience: string;
  /** Extra verifier options the provider's tokens need. */
  readonly options?: Partial<IdTokenVerifierOptions>;
  readonly typ?: string;
  readonly lifetimeSeconds?: number;
  readonly claims?: Record<string, unknown>;
}

const SHAPES: Record<string, ProviderShape> = {
  // Access tokens for an API: RFC 9068 at+jwt, 24 h by default.
  Auth0: {
    issuerPath: '/my-tenant.us.auth0.com/',
    jwksPath: '/.well-known/jwks.json',
    advertised: ['HS256', 'RS256', 'PS256'],
    alg: 'RS256',
    audience: 'https://api.example.com',
    options: { maxLifetimeSeconds: 86_400, typ: 'at+jwt' },
    typ: 'at+jwt',
    lifetimeSeconds: 86_400,
  },
  Okta: {
    issuerPath: '/example.okta.com/oauth2/default',
    jwksPath: '/oauth2/default/v1/keys',
    advertised: ['RS256'],
    alg: 'RS256',
    audience: 'api://default',
    options: { maxLifetimeSeconds: 7_200 },
    lifetimeSeconds: 7_200,
  },
  Google: {
    issuerPath: '/accounts.google.com',
    jwksPath: '/oauth2/v3/certs',
    advertised: ['RS256'],
    alg: 'RS256',
    audience: '1234-abc.apps.googleusercontent.com',
    claims: { email: 'a@example.com', email_verified: true },
  },
  'Microsoft Entra': {
    issuerPath: '/login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0',
    jwksPath: '/9188040d-6c67-4c5b-b112-36a304b66dad/discovery/v2.0/keys',
    advertised: ['RS256'],
    alg: 'RS256',
    audience: '6731de76-14a6-49ae-97bc-6eba6914391e',
    options: { maxLifetimeSeconds: 5_400 },
    lifetimeSeconds: 5_400,
  },
  Keycloak: {
    issuerPath: '/sso.example.com/realms/acme',
    jwksPath: '/realms/acme/protocol/openid-connect/certs',
    advertised: ['PS384', 'ES384', 'RS384', 'EdDSA', 'ES256', 'RS256', 'ES512', 'PS256', 'PS512', 'RS512'],
    alg: 'ES256',
    audience: 'account',
    options: { algorithms: ['RS256', 'ES256'] },
    typ: 'JWT',
    lifetimeSeconds: 300,
  },
  Clerk: {
    issuerPath: '/clerk.example.com',
    jwksPath: '/.well-known/jwks.json',
    advertised: ['RS256'],
    alg: 'RS256',
    audience: 'https://app.example.com',
    lifetimeSeconds: 60,
    claims: { azp: 'https://app.example.com', sid: 'sess_1' },
  },
  Supabase: {
    issuerPath: '/abcdefghijklmnop.supabase.co/auth/v1',
    jwksPath: '/auth/v1/.well-known/jwks.json',
    advertised: ['ES256', 'RS256'],
    alg: 'ES256',
    audience: 'authenticated',
    options: { algorithms: ['ES256', 'RS256'] },
    claims: { role: 'authenticated' },
  },
};

interface LocalProvider {
  readonly shape: ProviderShape;
  readonly issuer: string;
  readonly privateKey: KeyObject;
  readonly discovery: LocalKeyServer;
  readonly jwks: LocalKeyServer;
  document: Record<string, unknown> | undefined;
}

const providers = new Map<string, LocalProvider>();

async function startProvider(name: string, shape: ProviderShape): Promise<LocalProvider> {
  const pair =
    shape.alg === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...(pair.publicKey.export({ format: 'jwk' }) as object), kid: `${name}-key`, use: 'sig', alg: shape.alg };
  const headers = (): Record<string, string> => ({ 'cache-control': 'public, max-age=3600' });
  const jwks = await LocalKeyServer.start({ path: shape.jwksPath, document: () => ({ keys: [jwk] }), headers });
  let provider: LocalProvider | undefined;
  const discoveryPath = `${shape.issuerPath.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  const discovery = await LocalKeyServer.start({
    path: discoveryPath,
    document: () => provider!.document,
    headers,
  });
  const issuer = `${discovery.origin}${shape.issuerPath}`;
  provider = {
    shape,
    issuer,
    privateKey: pair.privateKey,
    discovery,
    jwks,
    document: {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      jwks_uri: jwks.url,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: shape.advertised,
    },
  };
  return provider;
}

beforeAll(async () => {
  for (const [name, shape] of Object.entries(SHAPES)) providers.set(name, await startProvider(name, shape));
});
afterAll(async () => {
  for (const p of providers.values()) await Promise.all([p.discovery.close(), p.jwks.close()]);
});

function tokenOf(p: LocalProvider, over: { alg?: JwsAlgorithm; kid?: string } = {}): Promise<string> {
  const now = Math.floor(nowMs / 1000);
  const name = [...providers.entries()].find(([, v]) => v === p)![0];
  return new SignJWT({ sub: 'user-1', ...p.shape.claims })
    .setProtectedHeader({
      alg: over.alg ?? p.shape.alg,
      kid: over.kid ?? `${name}-key`,
      ...(p.shape.typ === undefined ? {} : { typ: p.shape.typ }),
    })
    .setIssuer(p.issuer)
    .setAudience(p.shape.audience)
    .setIssuedAt(now)
    .setExpirationTime(now + (p.shape.lifetimeSeconds ?? 3600))
    .sign(p.privateKey);
}

function verifierOf(p: LocalProvider, extra: Partial<IdTokenVerifierOptions> = {}): ReturnType<typeof createIdTokenVerifier> {
  return createIdTokenVerifier({ ...oidc({ issuer: p.issuer, audience: p.shape.audience }), clock, ...p.shape.options, ...extra });
}

const settle = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    (v) => v,
    (e: unknown) => e,
  );

describe('oidc(): tested configurations', () => {
  it.each(Object.keys(SHAPES))('verifies a %s-shaped token through discovery', async (name) => {
    nowMs = T * 1000;
    const p = providers.get(name)!;
    await expect(verifierOf(p).verify(await tokenOf(p))).resolves.toMatchObject({ sub: 'user-1', iss: p.issuer });
  });
});

describe('oidc(): discovery under the key set rules', () => {
  it('fetches the document and the key set once for a burst (one fetch in flight each)', async () => {
    nowMs = T * 1000;
    const p = providers.get('Google')!;
    const [d0, k0] = [p.discovery.fetchCount, p.jwks.fetchCount];
    const v = verifierOf(p);
    const token = await tokenOf(p);
    const results = await Promise.all(Array.from({ length: 10 }, () => v.verify(token)));
    expect(results.every((c) => c.sub === 'user-1')).toBe(true);
    expect([p.discovery.fetchCount - d0, p.jwks.fetchCount - k0]).toEqual([1, 1]);
  });

  it('refuses (503) a document naming another issuer, never a 401', async () => {
    nowMs = T * 1000;
    const p = providers.get('Okta')!;
    const saved = p.document;
    p.document = { ...saved, issuer: `${p.issuer}/` };
    const warnings: string[] = [];
    const verifier = verifierOf(p, { onWarning: (message) => warnings.push(message) });
    const token = await tokenOf(p);
    try {
      expect(await settle(verifier.verify(token))).toBeInstanceOf(UnavailableError);
      expect(await settle(verifier.verify(token))).toBeInstanceOf(UnavailableError);
    } finally {
      p.document = saved;
    }
    // Said once, at warn, with the cause (never the token), not only in err.cause of every 503.
    expect(warnings).toEqual([
      `drops-auth: identity provider ${p.issuer} unusable, ID tokens answer 503: the discovery document names another issuer`,
    ]);
    expect(warnings.join('')).not.toContain(token);
  });

  it('refuses (401) an alg the document does not advertise, even when the verifier allows it', async () => {
    nowMs = T * 1000;
    const p = providers.get('Google')!; // advertises RS256 only
    const v = verifierOf(p, { algorithms: ['RS256', 'RS512'] });
    expect(await settle(v.verify(await tokenOf(p, { alg: 'RS512' })))).toBeInstanceOf(UnauthenticatedError);
  });

  it('answers 503 while discovery is down with nothing cached, and serves stale within the window', async () => {
    nowMs = T * 1000;
    const p = providers.get('Clerk')!;
    p.discovery.simulateOutage('error500');
    const v = verifierOf(p);
    try {
      expect(await settle(v.verify(await tokenOf(p)))).toBeInstanceOf(UnavailableError);
    } finally {
      p.discovery.simulateOutage(null);
    }
    const warm = verifierOf(p, { maxCachedTokens: 0 });
    await expect(warm.verify(await tokenOf(p))).resolves.toMatchObject({ sub: 'user-1' });
    p.discovery.simulateOutage('down');
    p.jwks.simulateOutage('down');
    try {
      nowMs = T * 1000 + 3_600_000 + 30 * 60_000; // past both documents' freshness, within the stale window
      await expect(warm.verify(await tokenOf(p))).resolves.toMatchObject({ sub: 'user-1' });
      nowMs = T * 1000 + 3 * 3_600_000; // past it
      expect(await settle(warm.verify(await tokenOf(p)))).toBeInstanceOf(UnavailableError);
    } finally {
      p.discovery.simulateOutage(null);
      p.jwks.simulateOutage(null);
      nowMs = T * 1000;
    }
  });

  it.each([
    [{ issuer: 'http://idp.example.com', audience: 'a' }],
    [{ issuer: 'not a url', audience: 'a' }],
    [{ issuer: 'https://idp.example.com', audience: '' }],
    [{ issuer: 'https://idp.example.com', audience: 'a', jwksUrl: 'https://x' }],
  ])('refuses oidc(%j) with a TypeError', (options) => {
    expect(() => oidc(options as never)).toThrow(TypeError);
  });

  it('refuses both jwksUrl and discovery, or neither, or a discovery not made by oidc(), with a TypeError', () => {
    const settings = oidc({ issuer: 'https://idp.example.com/', audience: 'a' });
    expect(settings.discovery.url).toBe('https://idp.example.com/.well-known/openid-configuration');
    const { issuer, audience } = settings;
    expect(() => createIdTokenVerifier({ issuer, audience, discovery: { url: settings.discovery.url } as never })).toThrow(TypeError);
    expect(() => createIdTokenVerifier({ ...settings, jwksUrl: 'https://idp.example.com/jwks' })).toThrow(TypeError);
    expect(() => createIdTokenVerifier({ issuer: 'https://idp.example.com/', audience: 'a' })).toThrow(TypeError);
  });
});
