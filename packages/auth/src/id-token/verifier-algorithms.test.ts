import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAGNOSTICS_CHANNELS, type JwksKeySkippedMessage } from '../diagnostics/diagnostics-messages.js';
import { UnauthenticatedError } from '../errors/index.js';
import { LocalKeyServer } from '../testing/local-key-server.js';
import { createIdTokenVerifier } from './create-id-token-verifier.js';
import type { IdTokenVerifierOptions } from './id-token-verifier-options.js';
import { JWS_ALGORITHMS, type JwsAlgorithm } from './jws-algorithms.js';

// `algorithms`, `maxLifetimeSeconds` and `typ`, end to end against a local JWKS holding an RSA,
// a P-256, a P-384 and an Ed25519 key (both builds: this file also runs under
// vitest.web-crypto.config.ts).

const T = 1_800_000_000;
const clock = (): number => T * 1000;
const issuer = 'https://idp.example';
const audience = 'drops-test';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const ed25519 = generateKeyPairSync('ed25519');
const jwkOf = (key: KeyObject): Record<string, string> => key.export({ format: 'jwk' }) as Record<string, string>;

/** A P-256 public key moved off its curve (y changed): importing it must fail, and it is skipped. */
function offCurve(): Record<string, string> {
  const jwk = jwkOf(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey);
  const y = Buffer.from(jwk.y!, 'base64url');
  y[31]! ^= 1;
  return { ...jwk, y: y.toString('base64url') };
}

const KID_OF: Record<JwsAlgorithm, string> = {
  RS256: 'rsa',
  RS384: 'rsa',
  RS512: 'rsa',
  PS256: 'rsa',
  PS384: 'rsa',
  PS512: 'rsa',
  ES256: 'p256',
  ES384: 'p384',
  EdDSA: 'ed25519',
};
const PRIVATE: Record<string, KeyObject> = {
  rsa: rsa.privateKey,
  p256: p256.privateKey,
  p384: p384.privateKey,
  ed25519: ed25519.privateKey,
};

let server: LocalKeyServer;
beforeAll(async () => {
  server = await LocalKeyServer.start({
    path: '/jwks.json',
    document: () => ({
      keys: [
        { ...jwkOf(rsa.publicKey), kid: 'rsa' },
        { ...jwkOf(rsa.publicKey), kid: 'rsa-rs256-only', alg: 'RS256' },
        { ...jwkOf(p256.publicKey), kid: 'p256', use: 'sig' },
        { ...jwkOf(p384.publicKey), kid: 'p384' },
        { ...jwkOf(ed25519.publicKey), kid: 'ed25519', alg: 'EdDSA' },
        { ...offCurve(), kid: 'off-curve' },
      ],
    }),
  });
});
afterAll(() => server.close());

interface TokenOptions {
  readonly alg: JwsAlgorithm;
  readonly kid?: string;
  readonly typ?: string;
  readonly lifetimeSeconds?: number;
}

function token({ alg, kid = KID_OF[alg], typ, lifetimeSeconds = 600 }: TokenOptions): Promise<string> {
  return new SignJWT({ sub: 'user-1' })
    .setProtectedHeader({ alg, kid, ...(typ === undefined ? {} : { typ }) })
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt(T)
    .setExpirationTime(T + lifetimeSeconds)
    .sign(PRIVATE[KID_OF[alg]]!);
}

function verifier(extra: Partial<IdTokenVerifierOptions> = {}): ReturnType<typeof createIdTokenVerifier> {
  return createIdTokenVerifier({ issuer, audience, jwksUrl: server.url, clock, ...extra });
}

async function outcome(v: ReturnType<typeof createIdTokenVerifier>, t: Promise<string>): Promise<unknown> {
  return v.verify(await t).then(
    (claims) => claims.sub,
    (error: unknown) => (error instanceof UnauthenticatedError ? `401 ${error.detail ?? ''}` : error),
  );
}

describe('the default verifier: RS256 tokens of at most an hour, as the spec says', () => {
  it('accepts RS256', async () => {
    expect(await outcome(verifier(), token({ alg: 'RS256' }))).toBe('user-1');
  });

  it.each(['RS512', 'PS256', 'ES256', 'EdDSA'] as const)('refuses %s', async (alg) => {
    expect(await outcome(verifier(), token({ alg }))).toMatch(/^401/);
  });

  it('refuses a 2-hour token', async () => {
    expect(await outcome(verifier(), token({ alg: 'RS256', lifetimeSeconds: 7200 }))).toMatch(/^401/);
  });
});

describe('algorithms', () => {
  let all: ReturnType<typeof createIdTokenVerifier>;
  beforeAll(() => {
    all = verifier({ algorithms: [...JWS_ALGORITHMS] });
  });

  it.each(JWS_ALGORITHMS)('verifies %s when listed', async (alg) => {
    expect(await outcome(all, token({ alg }))).toBe('user-1');
  });

  it.each(JWS_ALGORITHMS)('refuses %s when another algorithm alone is listed', async (alg) => {
    const other = JWS_ALGORITHMS.find((a) => KID_OF[a] !== KID_OF[alg])!;
    expect(await outcome(verifier({ algorithms: [other] }), token({ alg }))).toMatch(/^401/);
  });

  it('refuses an ES256 header naming an RSA key, and an RS256 header naming an EC key', async () => {
    expect(await outcome(all, token({ alg: 'ES256', kid: 'rsa' }))).toMatch(/^401/);
    expect(await outcome(all, token({ alg: 'ES384', kid: 'p256' }))).toMatch(/^401/);
    expect(await outcome(all, token({ alg: 'RS256', kid: 'p256' }))).toMatch(/^401/);
  });

  it('uses a key with an alg for that alg only', async () => {
    expect(await outcome(all, token({ alg: 'RS256', kid: 'rsa-rs256-only' }))).toBe('user-1');
    expect(await outcome(all, token({ alg: 'PS256', kid: 'rsa-rs256-only' }))).toMatch(/^401/);
  });

  it('skips an EC key off its curve, and the keys beside it keep working', async () => {
    const skipped: JwksKeySkippedMessage[] = [];
    const listener = (m: unknown): void => void skipped.push(m as JwksKeySkippedMessage);
    subscribe(DIAGNOSTICS_CHANNELS.jwksKeySkipped, listener);
    try {
      const v = verifier({ algorithms: ['ES256'] });
      expect(await outcome(v, token({ alg: 'ES256' }))).toBe('user-1');
      expect(skipped).toContainEqual({ url: server.url, kid: 'off-curve', reason: 'invalid_key' });
    } finally {
      unsubscribe(DIAGNOSTICS_CHANNELS.jwksKeySkipped, listener);
    }
  });

  it.each([[[]], [['HS256']], [['none']], [['RS256', 'rs512']], ['RS256']])('refuses algorithms %j with a TypeError', (algorithms) => {
    expect(() => verifier({ algorithms: algorithms as never })).toThrow(TypeError);
  });
});

describe('maxLifetimeSeconds and typ (RFC 9068 access tokens)', () => {
  let accessTokens: ReturnType<typeof createIdTokenVerifier>;
  beforeAll(() => {
    accessTokens = verifier({ maxLifetimeSeconds: 86_400, typ: 'at+jwt' });
  });

  it('accepts a 24-hour at+jwt token (any case, application/ optional)', async () => {
    expect(await outcome(accessTokens, token({ alg: 'RS256', typ: 'at+jwt', lifetimeSeconds: 86_400 }))).toBe('user-1');
    expect(await outcome(accessTokens, token({ alg: 'RS256', typ: 'application/AT+JWT', lifetimeSeconds: 600 }))).toBe('user-1');
  });

  it('refuses typ JWT, no typ, and a lifetime beyond the maximum', async () => {
    expect(await outcome(accessTokens, token({ alg: 'RS256', typ: 'JWT' }))).toMatch(/^401/);
    expect(await outcome(accessTokens, token({ alg: 'RS256' }))).toMatch(/^401/);
    expect(await outcome(accessTokens, token({ alg: 'RS256', typ: 'at+jwt', lifetimeSeconds: 86_401 }))).toMatch(/^401/);
  });

  it.each([{ maxLifetimeSeconds: 0 }, { maxLifetimeSeconds: 31 * 86_400 }, { maxLifetimeSeconds: 1.5 }, { typ: '' }, { typ: 1 }])(
    'refuses %j with a TypeError',
    (extra) => {
      expect(() => verifier(extra as never)).toThrow(TypeError);
    },
  );
});
