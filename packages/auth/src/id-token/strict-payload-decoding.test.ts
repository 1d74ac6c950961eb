import { KeyObject, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnauthenticatedError } from '../errors/index.js';
import { LocalIdentityProvider } from '../testing/local-identity-provider.js';
import { createIdTokenVerifier } from './create-id-token-verifier.js';
import type { IdTokenVerifier } from './id-token-claims.js';

// Correctly signed tokens whose header or payload bytes are not strict UTF-8 JSON: refused by
// both builds (this file also runs under vitest.web-crypto.config.ts). jose refuses them too.

const T = 1_800_000_000;
const clock = (): number => T * 1000;
let idp: LocalIdentityProvider;
let verifier: IdTokenVerifier;

beforeAll(async () => {
  idp = await LocalIdentityProvider.start({ clock, audience: 'drops-test' });
  verifier = createIdTokenVerifier({ ...idp.verifierOptions, clock });
});
afterAll(() => idp.close());

function signed(header: Buffer, payload: Buffer): string {
  const input = `${header.toString('base64url')}.${payload.toString('base64url')}`;
  const signature = sign('RSA-SHA256', Buffer.from(input), KeyObject.from(idp.currentKey.privateKey));
  return `${input}.${signature.toString('base64url')}`;
}

const headerJson = (): string => JSON.stringify({ alg: 'RS256', kid: idp.currentKid });
const payloadJson = (name: string): string =>
  JSON.stringify({ iss: idp.issuer, aud: 'drops-test', sub: 'user-1', iat: T, exp: T + 600, name });
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

async function outcome(token: string): Promise<unknown> {
  return verifier.verify(token).then(
    (claims) => claims,
    (error: unknown) => error,
  );
}

describe('strict decoding of a signed token', () => {
  it('accepts the control: the same payload, valid UTF-8', async () => {
    const token = signed(Buffer.from(headerJson()), Buffer.from(payloadJson('Zoë 😀')));
    expect(await outcome(token)).toMatchObject({ sub: 'user-1', name: 'Zoë 😀' });
  });

  it.each([
    ['a lone continuation byte', [0x80]],
    ['an overlong encoding', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['0xff', [0xff]],
  ])('refuses a payload holding %s (never substituted with U+FFFD)', async (_what, bytes) => {
    const [before, after] = payloadJson('X').split('X') as [string, string];
    const payload = Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
    expect(await outcome(signed(Buffer.from(headerJson()), payload))).toBeInstanceOf(UnauthenticatedError);
  });

  it('refuses a payload starting with a byte-order mark', async () => {
    const token = signed(Buffer.from(headerJson()), Buffer.concat([BOM, Buffer.from(payloadJson('x'))]));
    expect(await outcome(token)).toBeInstanceOf(UnauthenticatedError);
  });

  it('refuses a header starting with a byte-order mark, or holding invalid UTF-8', async () => {
    const payload = Buffer.from(payloadJson('x'));
    const withBom = signed(Buffer.concat([BOM, Buffer.from(headerJson())]), payload);
    expect(await outcome(withBom)).toBeInstanceOf(UnauthenticatedError);
    const [before, after] = headerJson().replace('}', ',"x":"X"}').split('X') as [string, string];
    const invalidUtf8 = signed(Buffer.concat([Buffer.from(before), Buffer.from([0xff]), Buffer.from(after)]), payload);
    expect(await outcome(invalidUtf8)).toBeInstanceOf(UnauthenticatedError);
  });
});
