// Every entry of the packed packages, required from CommonJS (no require(esm) needed: Node
// 20.12 to 20.18 have none), and errors recognised across the CommonJS and ESM copies.
const assert = require('node:assert/strict');
const { describe, it } = require('node:test');

describe('CommonJS: require', () => {
  for (const entry of [
    '@drops/auth',
    '@drops/auth/testing',
    '@drops/auth/testing/conformance',
    '@drops/auth/adapter',
    '@drops/auth-express',
    '@drops/auth-koa',
    '@drops/auth-fastify',
    '@drops/auth-hono',
    '@drops/auth-nestjs',
    '@drops/auth-postgres',
  ]) {
    it(entry, () => {
      assert.equal(typeof require(entry), 'object');
    });
  }

  it('mints and authenticates through the CommonJS build, ID token included', async () => {
    const { createAuthenticator, createIdTokenVerifier, createKeyManager, MemoryKeyStore } = require('@drops/auth');
    const { LocalIdentityProvider } = require('@drops/auth/testing');
    const idp = await LocalIdentityProvider.start();
    try {
      const keyStore = new MemoryKeyStore();
      const authenticator = createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) });
      const person = await authenticator.authenticate(`Bearer ${idp.mintIdToken({ sub: 'acct-cjs' })}`, { accept: ['id_token'] });
      const { apiKey, id } = await createKeyManager({ keyStore }).mint(person, { name: 'ci' });
      assert.deepEqual(await authenticator.authenticate(`Bearer ${apiKey}`), { accountId: 'acct-cjs', credential: 'api_key', keyId: id });
    } finally {
      await idp.close();
    }
  });

  it('recognises an error of the ESM copy, and the ESM copy one of the CommonJS copy', async () => {
    const cjs = require('@drops/auth');
    const esm = await import('@drops/auth');
    assert.notEqual(cjs.DropsAuthError, esm.DropsAuthError, 'two copies loaded');
    assert.ok(new esm.UnauthenticatedError('missing') instanceof cjs.UnauthenticatedError);
    assert.ok(new cjs.UnavailableError('key_store') instanceof esm.DropsAuthError);
    assert.ok(cjs.isDropsAuthError(new esm.NotFoundError('x')) && esm.isDropsAuthError(new cjs.NotFoundError('x')));
    assert.ok(!(new cjs.NotFoundError('x') instanceof esm.UnauthenticatedError));
  });
});
