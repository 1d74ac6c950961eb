import { KeyObject, sign } from 'node:crypto';
import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../authenticator/create-authenticator.js';
import { UnauthenticatedError, UNAUTHENTICATED_MESSAGE } from '../errors/index.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { LocalIdentityProvider, signWith } from '../testing/local-identity-provider.js';
import { createIdTokenVerifier } from './create-id-token-verifier.js';
import type { IdTokenVerifier } from './id-token-claims.js';

const T = 1_800_000_000; // seconds: the tests' "now"
let nowMs = T * 1000;
const clock = (): number => nowMs;

let idp: LocalIdentityProvider;
let verifier: IdTokenVerifier;
let foreignKey: CryptoKey;

beforeAll(async () => {
  idp = await LocalIdentityProvider.start({ clock, audience: 'drops-test' });
  verifier = createIdTokenVerifier({ ...idp.verifierOptions, clock });
  await verifier.warmUp();
  foreignKey = (await generateKeyPair('RS256')).privateKey;
});
afterAll(() => idp.close());

function freshVerifier(extra: Record<string, unknown> = {}): IdTokenVerifier {
  return createIdTokenVerifier({ ...idp.verifierOptions, clock, ...extra });
}

async function expectRejected(token: string, reason = 'invalid_token'): Promise<UnauthenticatedError> {
  const error = await verifier.verify(token).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UnauthenticatedError);
  const err = error as UnauthenticatedError;
  expect(err.status).toBe(401);
  expect(err.bodyText).toBe(JSON.stringify({ error: UNAUTHENTICATED_MESSAGE }));
  expect(err.reason).toBe(reason);
  if (token.length >= 20) {
    // The token never reaches a message or a log detail.
    expect(err.message).not.toContain(token.slice(-20));
    expect(err.detail ?? '').not.toContain(token.slice(-20));
  }
  return err;
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('createIdTokenVerifier: a valid token', () => {
  it('verifies and resolves the claims', async () => {
    nowMs = T * 1000;
    const claims = await verifier.verify(idp.mintIdToken({ sub: 'user-42', email: 'a@example.com' }));
    expect(claims).toMatchObject({
      sub: 'user-42',
      email: 'a@example.com',
      iss: idp.issuer,
      aud: 'drops-test',
      iat: T,
      exp: T + 3600,
      firebase: { sign_in_provider: 'google.com' },
    });
  });

  it('accepts an audience array that contains the expected audience', async () => {
    nowMs = T * 1000;
    const claims = await verifier.verify(idp.mintIdToken({ aud: ['other', 'drops-test'] }));
    expect(claims.aud).toEqual(['other', 'drops-test']);
  });

  it('accepts any of several configured audiences', async () => {
    nowMs = T * 1000;
    const v = freshVerifier({ audience: ['cli', 'drops-test'] });
    await expect(v.verify(idp.mintIdToken({}))).resolves.toMatchObject({ aud: 'drops-test' });
  });

  it('ignores typ, whatever it says', async () => {
    nowMs = T * 1000;
    await expect(verifier.verify(idp.mintIdToken({}, { header: { typ: undefined } }))).resolves.toBeDefined();
    await expect(verifier.verify(idp.mintIdToken({}, { header: { typ: 'at+jwt' } }))).resolves.toBeDefined();
  });

  it('accepts a lifetime of exactly one hour and optional claims in range', async () => {
    nowMs = T * 1000;
    const token = idp.mintIdToken({ iat: T - 100, exp: T + 3500, nbf: T - 100, auth_time: T - 7200 });
    await expect(verifier.verify(token)).resolves.toMatchObject({ nbf: T - 100 });
  });
});

describe('createIdTokenVerifier: clock tolerance', () => {
  const cases: [string, Record<string, number>, boolean][] = [
    ['exp 4 s ago (within 5 s)', { iat: T - 3000, exp: T - 4 }, true],
    ['exp 5 s ago (at the bound)', { iat: T - 3000, exp: T - 5 }, false],
    ['iat 5 s ahead', { iat: T + 5, exp: T + 3000 }, true],
    ['iat 6 s ahead', { iat: T + 6, exp: T + 3000 }, false],
    ['nbf 5 s ahead', { nbf: T + 5 }, true],
    ['nbf 6 s ahead', { nbf: T + 6 }, false],
    ['auth_time 5 s ahead', { auth_time: T + 5 }, true],
    ['auth_time 6 s ahead', { auth_time: T + 6 }, false],
  ];
  for (const [name, claims, ok] of cases) {
    it(`${ok ? 'accepts' : 'refuses'} ${name}`, async () => {
      nowMs = T * 1000;
      const token = idp.mintIdToken(claims);
      if (ok) await expect(verifier.verify(token)).resolves.toBeDefined();
      else await expectRejected(token, claims.exp === T - 5 ? 'expired_token' : 'invalid_token');
    });
  }

  it('honours a larger configured tolerance', async () => {
    nowMs = T * 1000;
    const v = freshVerifier({ clockToleranceSeconds: 60 });
    await expect(v.verify(idp.mintIdToken({ iat: T - 3000, exp: T - 59 }))).resolves.toBeDefined();
    await expect(v.verify(idp.mintIdToken({ iat: T - 3000, exp: T - 60 }))).rejects.toMatchObject({
      reason: 'expired_token',
    });
  });
});

describe('createIdTokenVerifier: the negative corpus', () => {
  // Each case differs from a valid token in one respect only.
  const corpus: [string, () => string | Promise<string>, string?][] = [
    ['alg none, unsigned', () => signWith.none({ alg: 'none', typ: 'JWT', kid: idp.currentKid }, validClaims())],
    ['alg none with the real signature', () => withHeader(idp.mintIdToken({}), { alg: 'none', kid: idp.currentKid })],
    ['HS256 keyed with the public key PEM', () => signWith.hs256(idp.publicKeyPem, { alg: 'HS256', kid: idp.currentKid }, validClaims())],
    [
      'HS256 keyed with the public JWK',
      () => signWith.hs256(JSON.stringify(idp.currentKey.publicJwk), { alg: 'HS256', kid: idp.currentKid }, validClaims()),
    ],
    ['RS512 header', () => idp.mintIdToken({}, { header: { alg: 'RS512' } })],
    ['PS256 header', () => idp.mintIdToken({}, { header: { alg: 'PS256' } })],
    ['lower-case rs256', () => idp.mintIdToken({}, { header: { alg: 'rs256' } })],
    ['no alg', () => idp.mintIdToken({}, { header: { alg: undefined } })],
    ['a foreign key under a known kid', () => idp.mintIdToken({}, { key: foreignKey })],
    ['a tampered payload', () => tamper(idp.mintIdToken({ sub: 'user-1' }), { ...validClaims(), sub: 'admin' })],
    ['a stripped signature', () => stripSignature(idp.mintIdToken({}))],
    ['a signature of another token', () => swapSignature(idp.mintIdToken({ sub: 'a' }), idp.mintIdToken({ sub: 'b' }))],
    ['a crit header', () => idp.mintIdToken({}, { header: { crit: ['exp'], exp: T + 10 } })],
    ['an empty crit header', () => idp.mintIdToken({}, { header: { crit: [] } })],
    ['missing kid', () => idp.mintIdToken({}, { header: { kid: undefined } })],
    ['empty kid', () => idp.mintIdToken({}, { kid: '' })],
    ['numeric kid', () => idp.mintIdToken({}, { header: { kid: 7 } })],
    ['unknown kid', () => idp.mintIdToken({}, { kid: 'no-such-kid' })],
    ['wrong iss', () => idp.mintIdToken({ iss: 'https://evil.example.com' })],
    ['iss with a trailing slash', () => idp.mintIdToken({ iss: `${idp.issuer}/` })],
    ['missing iss', () => idp.mintIdToken({ iss: undefined })],
    ['wrong aud', () => idp.mintIdToken({ aud: 'someone-else' })],
    ['aud array without ours', () => idp.mintIdToken({ aud: ['a', 'b'] })],
    ['missing aud', () => idp.mintIdToken({ aud: undefined })],
    ['expired', () => idp.mintIdToken({ iat: T - 3600, exp: T - 60 }), 'expired_token'],
    ['missing exp', () => idp.mintIdToken({ exp: undefined })],
    ['exp a string', () => idp.mintIdToken({ exp: String(T + 3600) })],
    ['missing iat', () => idp.mintIdToken({ iat: undefined })],
    ['iat a string', () => idp.mintIdToken({ iat: String(T) })],
    ['iat in the future', () => idp.mintIdToken({ iat: T + 600, exp: T + 1200 })],
    ['nbf in the future', () => idp.mintIdToken({ nbf: T + 600 })],
    ['nbf a string', () => idp.mintIdToken({ nbf: String(T) })],
    ['auth_time in the future', () => idp.mintIdToken({ auth_time: T + 600 })],
    ['auth_time a string', () => idp.mintIdToken({ auth_time: 'yesterday' })],
    ['sub empty', () => idp.mintIdToken({ sub: '' })],
    ['sub of 129 characters', () => idp.mintIdToken({ sub: 'x'.repeat(129) })],
    ['sub a number', () => idp.mintIdToken({ sub: 42 })],
    ['missing sub', () => idp.mintIdToken({ sub: undefined })],
    ['lifetime over one hour', () => idp.mintIdToken({ iat: T, exp: T + 3601 })],
    ['lifetime of a day', () => idp.mintIdToken({}, { expiresInSeconds: 86_400 })],
    ['empty string', () => ''],
    ['one part', () => 'abc'],
    ['two parts', () => 'abc.def'],
    ['four parts', () => `${idp.mintIdToken({})}.abc`],
    ['only dots', () => '..'],
    ['a Bearer prefix left on', () => `Bearer ${idp.mintIdToken({})}`],
    ['non-base64url characters', () => idp.mintIdToken({}).replace('.', '.*')],
    ['header not JSON', () => `${Buffer.from('{alg:RS256').toString('base64url')}.${b64(validClaims())}.c2ln`],
    ['header a JSON array', () => `${b64(['RS256'])}.${b64(validClaims())}.c2ln`],
    ['payload a JSON string', () => resign(b64({ alg: 'RS256', kid: idp.currentKid }), b64('hello'))],
    ['payload not JSON', () => resign(b64({ alg: 'RS256', kid: idp.currentKid }), Buffer.from('{"sub":').toString('base64url'))],
    ['oversized (17 KiB)', () => idp.mintIdToken({ padding: 'x'.repeat(17 * 1024) })],
  ];

  for (const [name, build, reason] of corpus) {
    it(`refuses ${name}`, async () => {
      nowMs = T * 1000;
      await expectRejected(await build(), reason ?? 'invalid_token');
    });
  }

  it('refuses a non-string token', async () => {
    for (const bad of [undefined, null, 42, {}, ['a.b.c']]) {
      await expect(verifier.verify(bad as unknown as string)).rejects.toBeInstanceOf(UnauthenticatedError);
    }
  });

  it('refuses bad signatures the same way when many verifications are in flight', async () => {
    nowMs = T * 1000;
    const good = Array.from({ length: 16 }, (_, i) => idp.mintIdToken({ sub: `g${i}` }));
    const bad = good.map((t) => tamper(t, { ...validClaims(), sub: 'admin' }));
    const short = good.map((t) => `${t.slice(0, t.lastIndexOf('.'))}.c2ln`);
    const results = await Promise.allSettled([...good, ...bad, ...short].map((t) => verifier.verify(t)));
    expect(results.slice(0, 16).every((r) => r.status === 'fulfilled')).toBe(true);
    for (const r of results.slice(16)) {
      expect(r.status).toBe('rejected');
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(UnauthenticatedError);
    }
  });

  it('answers every refusal with the same status, headers and body', async () => {
    nowMs = T * 1000;
    const errors: UnauthenticatedError[] = [];
    for (const [, build] of corpus) {
      errors.push(
        await verifier.verify(await build()).then(
          () => {
            throw new Error('accepted');
          },
          (e: UnauthenticatedError) => e,
        ),
      );
    }
    const first = errors[0]!;
    for (const err of errors) {
      expect([err.status, err.bodyText, err.headers]).toEqual([first.status, first.bodyText, first.headers]);
    }
  });
});

describe('createIdTokenVerifier: one token, one spelling', () => {
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  /** The same bytes, spelled with the lowest unused bit of the last character set. */
  function respell(part: string): string {
    expect(part.length % 4, 'a part with unused bits').not.toBe(0);
    const other = part.slice(0, -1) + ALPHABET[ALPHABET.indexOf(part.slice(-1)) | 1];
    expect(Buffer.from(other, 'base64url')).toEqual(Buffer.from(part, 'base64url'));
    return other;
  }
  /** A JSON object whose base64url spelling has unused bits (its byte length is not a multiple of 3). */
  function spelled(value: Record<string, unknown>): string {
    for (let pad = ''; ; pad += 'x') {
      const part = b64(pad === '' ? value : { ...value, pad });
      if (part.length % 4 !== 0) return part;
    }
  }

  function variants(): Array<[string, string, string]> {
    nowMs = T * 1000;
    const header = spelled({ alg: 'RS256', kid: idp.currentKid });
    const payload = spelled(validClaims());
    const token = resign(header, payload);
    const [, , signature] = parts(token);
    return [
      ['canonical', token, ''],
      // Same signature bytes: verified on the lenient decoder.
      ['signature', `${header}.${payload}.${respell(signature)}`, 'refused'],
      // Signed by the provider over the other spelling, as an attacker cannot, but a sloppy issuer might.
      ['header', resign(respell(header), payload), 'refused'],
      ['payload', resign(header, respell(payload)), 'refused'],
    ];
  }

  it('refuses a valid token respelled in the unused bits of any part', async () => {
    const v = freshVerifier();
    const outcomes: Record<string, string> = {};
    const expected: Record<string, string> = {};
    for (const [part, token, refused] of variants()) {
      outcomes[part] = await v.verify(token).then(
        (claims) => claims.sub,
        (e: unknown) => (e instanceof UnauthenticatedError ? e.reason : String(e)),
      );
      expected[part] = refused ? 'invalid_token' : 'user-1';
    }
    expect(outcomes).toEqual(expected);
  });

  it('answers the uniform 401 at the authenticator for every respelling', async () => {
    const authenticator = createAuthenticator({
      keyStore: new MemoryKeyStore(),
      idTokenVerifier: freshVerifier(),
    });
    const uniform = JSON.stringify([
      401,
      { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'www-authenticate': 'Bearer realm="drops"' },
      JSON.stringify({ error: UNAUTHENTICATED_MESSAGE }),
    ]);
    const outcomes: Record<string, string> = {};
    const expected: Record<string, string> = {};
    for (const [part, token, refused] of variants()) {
      outcomes[part] = await authenticator.authenticate(`Bearer ${token}`).then(
        (principal) => principal.accountId,
        (e: UnauthenticatedError) => JSON.stringify([e.status, e.headers, e.bodyText]),
      );
      expected[part] = refused ? uniform : 'user-1';
    }
    expect(outcomes).toEqual(expected);
  });
});

function validClaims(): Record<string, unknown> {
  return { iss: idp.issuer, aud: idp.audience, sub: 'user-1', iat: T, exp: T + 3600, auth_time: T };
}
function parts(token: string): [string, string, string] {
  const [h = '', p = '', s = ''] = token.split('.');
  return [h, p, s];
}
function withHeader(token: string, header: object): string {
  const [, p, s] = parts(token);
  return `${b64(header)}.${p}.${s}`;
}
function tamper(token: string, payload: object): string {
  const [h, , s] = parts(token);
  return `${h}.${b64(payload)}.${s}`;
}
function stripSignature(token: string): string {
  const [h, p] = parts(token);
  return `${h}.${p}.`;
}
function swapSignature(token: string, other: string): string {
  const [h, p] = parts(token);
  return `${h}.${p}.${parts(other)[2]}`;
}
function resign(header: string, payload: string): string {
  // Signed correctly with the current key: only the payload's shape is wrong.
  const input = `${header}.${payload}`;
  const signature = sign('RSA-SHA256', Buffer.from(input), KeyObject.from(idp.currentKey.privateKey));
  return `${input}.${signature.toString('base64url')}`;
}
