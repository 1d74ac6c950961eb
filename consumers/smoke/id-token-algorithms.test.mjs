// The core, packed: the ID token verifier's opt-in algorithms, lifetime and typ, and the oidc()
// discovery preset, against a key set and a discovery document served on loopback. Tokens are
// signed here with node:crypto (RS512, PS256, ES256, EdDSA), as a provider would sign them.
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createIdTokenVerifier, oidc, UnauthenticatedError } from '@drops/auth';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ed25519 = generateKeyPairSync('ed25519');
const jwk = (key, kid) => ({ ...key.export({ format: 'jwk' }), kid, use: 'sig' });

/** How node:crypto signs each algorithm, and with which key. */
const SIGNERS = {
  RS256: (data) => sign('sha256', data, rsa.privateKey),
  RS512: (data) => sign('sha512', data, rsa.privateKey),
  PS256: (data) => sign('sha256', data, { key: rsa.privateKey, padding: 6, saltLength: 32 }),
  ES256: (data) => sign('sha256', data, { key: p256.privateKey, dsaEncoding: 'ieee-p1363' }),
  EdDSA: (data) => sign(null, data, ed25519.privateKey),
};
const KID = { RS256: 'rsa', RS512: 'rsa', PS256: 'rsa', ES256: 'p256', EdDSA: 'ed25519' };
const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');

let server;
let issuer;
const audience = 'drops-smoke';

function token(alg, { kid = KID[alg], typ, lifetime = 600 } = {}) {
  const now = Math.floor(Date.now() / 1000);
  const header = { alg, kid, ...(typ === undefined ? {} : { typ }) };
  const input = `${b64(header)}.${b64({ iss: issuer, aud: audience, sub: 'user-1', iat: now, exp: now + lifetime })}`;
  return `${input}.${SIGNERS[alg](Buffer.from(input)).toString('base64url')}`;
}

const verdict = (verifier, t) =>
  verifier.verify(t).then(
    (claims) => claims.sub,
    (error) => (error instanceof UnauthenticatedError ? 401 : error),
  );

before(async () => {
  server = createServer((req, res) => {
    const documents = {
      '/idp/.well-known/openid-configuration': {
        issuer,
        jwks_uri: `${issuer}/jwks`,
        id_token_signing_alg_values_supported: Object.keys(SIGNERS),
      },
      '/idp/jwks': { keys: [jwk(rsa.publicKey, 'rsa'), jwk(p256.publicKey, 'p256'), jwk(ed25519.publicKey, 'ed25519')] },
    };
    const document = documents[req.url];
    res.writeHead(document === undefined ? 404 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(document ?? {}));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${server.address().port}/idp`;
});
after(() => new Promise((resolve) => server.close(resolve)));

describe('ID token algorithms, lifetime and typ, packed', () => {
  const settings = () => ({ issuer, audience, jwksUrl: `${issuer}/jwks` });

  it('the default accepts RS256 and refuses RS512, PS256, ES256, EdDSA and a 2-hour token', async () => {
    const verifier = createIdTokenVerifier(settings());
    assert.equal(await verdict(verifier, token('RS256')), 'user-1');
    for (const alg of ['RS512', 'PS256', 'ES256', 'EdDSA']) assert.equal(await verdict(verifier, token(alg)), 401, alg);
    assert.equal(await verdict(verifier, token('RS256', { lifetime: 7200 })), 401);
  });

  it('with algorithms listing them, each verifies; an ES256 header naming an RSA key is refused', async () => {
    const verifier = createIdTokenVerifier({ ...settings(), algorithms: ['RS256', 'RS512', 'PS256', 'ES256', 'EdDSA'] });
    for (const alg of ['RS512', 'PS256', 'ES256', 'EdDSA']) assert.equal(await verdict(verifier, token(alg)), 'user-1', alg);
    assert.equal(await verdict(verifier, token('ES256', { kid: 'rsa' })), 401);
  });

  it('maxLifetimeSeconds 86400 with typ at+jwt accepts a 24-hour at+jwt token and refuses typ JWT', async () => {
    const verifier = createIdTokenVerifier({ ...settings(), maxLifetimeSeconds: 86_400, typ: 'at+jwt' });
    assert.equal(await verdict(verifier, token('RS256', { typ: 'at+jwt', lifetime: 86_400 })), 'user-1');
    assert.equal(await verdict(verifier, token('RS256', { typ: 'JWT', lifetime: 86_400 })), 401);
  });

  it('oidc({ issuer, audience }) verifies through discovery', async () => {
    const verifier = createIdTokenVerifier({ ...oidc({ issuer, audience }), algorithms: ['ES256'] });
    assert.equal(await verdict(verifier, token('ES256')), 'user-1');
  });
});
