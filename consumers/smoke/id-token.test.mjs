// The core, packed: ID tokens verified against a JWKS on loopback, the attacks refused with the
// uniform 401, and an identity provider that cannot answer a 503, never a 401.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAuthenticator, createIdTokenVerifier, MemoryKeyStore, UnauthenticatedError, UnavailableError } from '@drops/auth';
import { LocalIdentityProvider, signWith } from '@drops/auth/testing';

describe('ID tokens against a local JWKS', () => {
  /** @type {LocalIdentityProvider} */
  let idp;
  /** @type {ReturnType<typeof createAuthenticator>} */
  let authenticator;

  before(async () => {
    idp = await LocalIdentityProvider.start();
    authenticator = createAuthenticator({
      keyStore: new MemoryKeyStore(),
      idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }),
    });
  });
  after(() => idp?.close());

  it('accepts a valid token: the principal is its subject', async () => {
    const principal = await authenticator.authenticate(`Bearer ${idp.mintIdToken({ sub: 'user-1', email: 'ada@example.com' })}`);
    assert.equal(principal.accountId, 'user-1');
    assert.equal(principal.credential, 'id_token');
    assert.equal(principal.claims?.email, 'ada@example.com');
  });

  const now = () => Math.floor(Date.now() / 1000);
  const refused = {
    expired: () => idp.mintIdToken({ sub: 'user-1', iat: now() - 7200, exp: now() - 3600 }),
    'for another audience': () => idp.mintIdToken({ sub: 'user-1', aud: 'someone-else' }),
    'from another issuer': () => idp.mintIdToken({ sub: 'user-1', iss: 'https://evil.example' }),
    'under an unknown kid': () => idp.mintIdToken({ sub: 'user-1' }, { kid: 'no-such-key' }),
    tampered: () => {
      const [header, payload, signature] = idp.mintIdToken({ sub: 'user-1' }).split('.');
      const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: 'admin' })).toString(
        'base64url',
      );
      return `${header}.${forged}.${signature}`;
    },
    'alg none': () =>
      signWith.none(
        { alg: 'none', kid: idp.currentKid },
        { sub: 'admin', iss: idp.issuer, aud: idp.audience, iat: now(), exp: now() + 60 },
      ),
  };
  for (const [what, token] of Object.entries(refused)) {
    it(`refuses a token ${what} with the uniform 401`, async () => {
      await assert.rejects(authenticator.authenticate(`Bearer ${token()}`), (error) => {
        assert.ok(error instanceof UnauthenticatedError);
        assert.equal(error.status, 401);
        return true;
      });
    });
  }

  it('answers 503 with Retry-After when the key set cannot be fetched', async () => {
    const fresh = createAuthenticator({
      keyStore: new MemoryKeyStore(),
      idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }),
    });
    idp.simulateOutage('down');
    try {
      await assert.rejects(fresh.authenticate(`Bearer ${idp.mintIdToken({ sub: 'user-1' })}`), (error) => {
        assert.ok(error instanceof UnavailableError);
        assert.equal(error.status, 503);
        assert.match(error.headers['retry-after'] ?? '', /^\d+$/);
        return true;
      });
    } finally {
      idp.simulateOutage(null);
    }
  });
});
