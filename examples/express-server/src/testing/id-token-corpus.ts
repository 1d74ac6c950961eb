import { createSign, KeyObject } from 'node:crypto';
import { signWith, type LocalIdentityProvider, type PrivateSigningKey } from '@drops/auth/testing';

/** One ID token an identity-provider-configured server must refuse with the uniform 401. */
export interface BadIdToken {
  readonly name: string;
  readonly token: string;
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * The negative ID token corpus of the core (packages/auth/src/id-token/create-id-token-verifier.test.ts),
 * ported to the wall clock a real server runs on: each token differs from a valid one in one
 * respect only. The core's 17 KiB token is left out: over HTTP it exceeds Node's header limit
 * (a 431, tested with the oversized headers). `foreignKey` is a private key the provider does not publish.
 */
export function badIdTokens(idp: LocalIdentityProvider, foreignKey: PrivateSigningKey, sub = 'corpus-user'): BadIdToken[] {
  const T = Math.floor(Date.now() / 1000);
  const valid = (): Record<string, unknown> => ({ iss: idp.issuer, aud: idp.audience, sub, iat: T, exp: T + 3600, auth_time: T });
  const mint = (claims: Record<string, unknown> = {}, options: Parameters<LocalIdentityProvider['mintIdToken']>[1] = {}): string =>
    idp.mintIdToken({ sub, ...claims }, options);
  const parts = (token: string): [string, string, string] => {
    const [h = '', p = '', s = ''] = token.split('.');
    return [h, p, s];
  };
  const resign = (header: string, payload: string): string => {
    // Signed correctly with the current key: only the payload's shape is wrong.
    const input = `${header}.${payload}`;
    const key = KeyObject.from(idp.currentKey.privateKey);
    return `${input}.${createSign('RSA-SHA256').update(input).sign(key).toString('base64url')}`;
  };
  const kid = idp.currentKid;
  const cases: Array<[string, string]> = [
    ['alg none, unsigned', signWith.none({ alg: 'none', typ: 'JWT', kid }, valid())],
    ['alg none with the real signature', ((t) => `${b64({ alg: 'none', kid })}.${parts(t)[1]}.${parts(t)[2]}`)(mint())],
    ['HS256 keyed with the public key PEM', signWith.hs256(idp.publicKeyPem, { alg: 'HS256', kid }, valid())],
    ['HS256 keyed with the public JWK', signWith.hs256(JSON.stringify(idp.currentKey.publicJwk), { alg: 'HS256', kid }, valid())],
    ['RS512 header', mint({}, { header: { alg: 'RS512' } })],
    ['PS256 header', mint({}, { header: { alg: 'PS256' } })],
    ['lower-case rs256', mint({}, { header: { alg: 'rs256' } })],
    ['no alg', mint({}, { header: { alg: undefined } })],
    ['a foreign key under a known kid', mint({}, { key: foreignKey })],
    ['a tampered payload', ((t) => `${parts(t)[0]}.${b64({ ...valid(), sub: 'admin' })}.${parts(t)[2]}`)(mint())],
    ['a stripped signature', ((t) => `${parts(t)[0]}.${parts(t)[1]}.`)(mint())],
    ['a signature of another token', ((a, b) => `${parts(a)[0]}.${parts(a)[1]}.${parts(b)[2]}`)(mint({ sub: 'a' }), mint({ sub: 'b' }))],
    ['a crit header', mint({}, { header: { crit: ['exp'], exp: T + 10 } })],
    ['an empty crit header', mint({}, { header: { crit: [] } })],
    ['missing kid', mint({}, { header: { kid: undefined } })],
    ['empty kid', mint({}, { kid: '' })],
    ['numeric kid', mint({}, { header: { kid: 7 } })],
    ['unknown kid', mint({}, { kid: 'no-such-kid' })],
    ['wrong iss', mint({ iss: 'https://evil.example.com' })],
    ['iss with a trailing slash', mint({ iss: `${idp.issuer}/` })],
    ['missing iss', mint({ iss: undefined })],
    ['wrong aud', mint({ aud: 'someone-else' })],
    ['aud array without ours', mint({ aud: ['a', 'b'] })],
    ['missing aud', mint({ aud: undefined })],
    ['expired', mint({ iat: T - 3600, exp: T - 60, auth_time: T - 3600 })],
    ['missing exp', mint({ exp: undefined })],
    ['exp a string', mint({ exp: String(T + 3600) })],
    ['missing iat', mint({ iat: undefined })],
    ['iat a string', mint({ iat: String(T) })],
    ['iat in the future', mint({ iat: T + 600, exp: T + 1200 })],
    ['nbf in the future', mint({ nbf: T + 600 })],
    ['nbf a string', mint({ nbf: String(T) })],
    ['auth_time in the future', mint({ auth_time: T + 600 })],
    ['auth_time a string', mint({ auth_time: 'yesterday' })],
    ['sub empty', mint({ sub: '' })],
    ['sub of 129 characters', mint({ sub: 'x'.repeat(129) })],
    ['sub a number', mint({ sub: 42 })],
    ['missing sub', mint({ sub: undefined })],
    ['lifetime over one hour', mint({ iat: T, exp: T + 3601 })],
    ['lifetime of a day', mint({}, { expiresInSeconds: 86_400 })],
    ['empty string', ''],
    ['a Bearer prefix left on', `Bearer ${mint()}`],
    ['one part', 'abc'],
    ['two parts', 'abc.def'],
    ['four parts', `${mint()}.abc`],
    ['only dots', '..'],
    ['non-base64url characters', mint().replace('.', '.*')],
    ['header not JSON', `${Buffer.from('{alg:RS256').toString('base64url')}.${b64(valid())}.c2ln`],
    ['header a JSON array', `${b64(['RS256'])}.${b64(valid())}.c2ln`],
    ['payload a JSON string', resign(b64({ alg: 'RS256', kid }), b64('hello'))],
    ['payload not JSON', resign(b64({ alg: 'RS256', kid }), Buffer.from('{"sub":').toString('base64url'))],
    [
      'a token of another identity provider configuration (issuer and audience of a stranger)',
      mint({ iss: 'https://securetoken.google.com/other-project', aud: 'other-project' }),
    ],
  ];
  return cases.map(([name, token]) => ({ name, token }));
}
