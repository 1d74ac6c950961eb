import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAGNOSTICS_CHANNELS, type JwksKeySkippedMessage } from '../diagnostics/diagnostics-messages.js';
import { UnauthenticatedError } from '../errors/index.js';
import { LocalKeyServer } from '../testing/local-key-server.js';
import { createIdTokenVerifier } from './create-id-token-verifier.js';
import { ROCA_PRIMES } from './roca-fingerprint.js';

// Keys a JWKS must never be trusted with, served beside a good key by one local key server, and
// checked end to end through `createIdTokenVerifier` (in both builds: this file also runs under
// vitest.web-crypto.config.ts).

const T = 1_800_000_000;
const clock = (): number => T * 1000;
const issuer = 'https://idp.example';
const audience = 'drops-test';
const claims = { iss: issuer, aud: audience, sub: 'user-1', iat: T, exp: T + 600 };

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

interface Pair {
  readonly privateKey: KeyObject;
  readonly jwk: { kty: string; n: string; e: string };
}

function rsaPair(bits: number): Pair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return { privateKey, jwk: publicKey.export({ format: 'jwk' }) as Pair['jwk'] };
}

function rs256(privateKey: KeyObject, kid: string): string {
  const input = `${b64({ alg: 'RS256', kid })}.${b64(claims)}`;
  return `${input}.${sign('RSA-SHA256', Buffer.from(input), privateKey).toString('base64url')}`;
}

/**
 * A token "signed" for an RSA key whose exponent is 1, with no private key: s^1 mod n = s, so
 * the signature is the EMSA-PKCS1-v1_5 encoding of the hash itself.
 */
function forgedForExponentOne(modulusBytes: number, kid: string): string {
  const input = `${b64({ alg: 'RS256', kid })}.${b64(claims)}`;
  const digestInfo = Buffer.concat([
    Buffer.from('3031300d060960864801650304020105000420', 'hex'),
    createHash('sha256').update(input).digest(),
  ]);
  const padding = Buffer.alloc(modulusBytes - digestInfo.length - 3, 0xff);
  const encoded = Buffer.concat([Buffer.from([0, 1]), padding, Buffer.from([0]), digestInfo]);
  return `${input}.${encoded.toString('base64url')}`;
}

/** A 2048-bit modulus carrying the ROCA fingerprint: n = k·M + 65537^a mod M (M the primes' product). */
function rocaModulus(): string {
  const m = ROCA_PRIMES.reduce((product, p) => product * BigInt(p), 1n);
  let power = 1n;
  for (let i = 0; i < 1234; i++) power = (power * 65537n) % m;
  const k = (1n << 2047n) / m + 12345n;
  const n = k * m + power;
  expect(n.toString(2).length).toBe(2048);
  return Buffer.from(n.toString(16).padStart(512, '0'), 'hex').toString('base64url');
}

const good = rsaPair(2048);
const exponentOne = rsaPair(2048);
const small = rsaPair(1024);
const encryptOnly = rsaPair(2048);
const forEncryption = rsaPair(2048);
const roca = rsaPair(2048);

let server: LocalKeyServer;
const skipped: JwksKeySkippedMessage[] = [];
const onSkipped = (message: unknown): void => {
  skipped.push(message as JwksKeySkippedMessage);
};

beforeAll(async () => {
  subscribe(DIAGNOSTICS_CHANNELS.jwksKeySkipped, onSkipped);
  server = await LocalKeyServer.start({
    path: '/jwks.json',
    document: () => ({
      keys: [
        { ...exponentOne.jwk, e: 'AQ', kid: 'e1' },
        { ...exponentOne.jwk, e: 'Aw', kid: 'e3' },
        { ...exponentOne.jwk, e: 'AQAA', kid: 'even' },
        { ...small.jwk, kid: 'small' },
        { ...encryptOnly.jwk, kid: 'encrypt', key_ops: ['encrypt'] },
        { ...forEncryption.jwk, kid: 'enc', use: 'enc' },
        { ...roca.jwk, n: rocaModulus(), kid: 'roca' },
        { ...good.jwk, kid: 'good', use: 'sig', key_ops: ['verify'] },
      ],
    }),
  });
});
afterAll(async () => {
  unsubscribe(DIAGNOSTICS_CHANNELS.jwksKeySkipped, onSkipped);
  await server.close();
});

async function refusal(token: string): Promise<unknown> {
  const verifier = createIdTokenVerifier({ issuer, audience, jwksUrl: server.url, clock });
  return verifier.verify(token).then(
    () => 'accepted',
    (error: unknown) => error,
  );
}

describe('a JWKS holding keys that must never be trusted', () => {
  it('refuses a token forged for an RSA key with exponent 1, with no private key', async () => {
    const error = await refusal(forgedForExponentOne(256, 'e1'));
    expect(error).toBeInstanceOf(UnauthenticatedError);
    expect((error as UnauthenticatedError).status).toBe(401);
  });

  it.each([
    ['a 1024-bit key', () => rs256(small.privateKey, 'small')],
    ['a key whose key_ops are ["encrypt"]', () => rs256(encryptOnly.privateKey, 'encrypt')],
    ['a key whose use is "enc"', () => rs256(forEncryption.privateKey, 'enc')],
  ])('refuses a token signed under %s', async (_what, token) => {
    expect(await refusal(token())).toBeInstanceOf(UnauthenticatedError);
  });

  it('keeps the good key beside them working, and reports each skipped key on its channel', async () => {
    skipped.length = 0;
    const verifier = createIdTokenVerifier({ issuer, audience, jwksUrl: server.url, clock });
    await expect(verifier.verify(rs256(good.privateKey, 'good'))).resolves.toMatchObject({ sub: 'user-1' });
    const reasons = Object.fromEntries(skipped.map((m) => [m.kid, m.reason]));
    expect(reasons).toEqual({
      e1: 'weak_rsa_exponent',
      e3: 'weak_rsa_exponent',
      even: 'weak_rsa_exponent',
      small: 'weak_rsa_modulus',
      encrypt: 'not_for_verification',
      enc: 'not_for_signatures',
      roca: 'roca_modulus',
    });
    expect(new Set(skipped.map((m) => m.url))).toEqual(new Set([server.url]));
  });
});
