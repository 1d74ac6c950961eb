// The core, packed: API keys minted, authenticated, listed and revoked; the uniform 401; and the
// KeyStore conformance suite on MemoryKeyStore under node:test (no vitest needed).
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { isApiKeyFormat, keyIdOf, MemoryKeyStore, UnauthenticatedError } from '@drops/auth';
import { describeKeyStoreConformance } from '@drops/auth/testing/conformance';
import { localAuth } from './support.mjs';

describe('API keys', () => {
  it('mints with an ID token, authenticates, lists, revokes: then the uniform 401', async () => {
    const { idp, authenticator, keys } = await localAuth();
    try {
      const person = await authenticator.authenticate(`Bearer ${idp.mintIdToken({ sub: 'alice' })}`, { accept: ['id_token'] });
      const { apiKey, id, prefix } = await keys.mint(person, { name: 'ci-main' });
      assert.ok(isApiKeyFormat(apiKey));
      assert.equal(keyIdOf(apiKey), id);
      assert.equal(apiKey.slice(0, 10), prefix);

      const pipeline = await authenticator.authenticate(`Bearer ${apiKey}`);
      assert.deepEqual(pipeline, { accountId: 'alice', credential: 'api_key', keyId: id });
      await assert.rejects(keys.mint(pipeline), UnauthenticatedError, 'a key cannot mint a key');
      assert.deepEqual(
        (await keys.list(person)).map((key) => key.name),
        ['ci-main'],
      );

      await keys.revoke(person, id);
      await assert.rejects(authenticator.authenticate(`Bearer ${apiKey}`), (error) => {
        assert.ok(error instanceof UnauthenticatedError);
        assert.equal(error.status, 401);
        assert.equal(error.bodyText, '{"error":"missing or invalid API key: sign in to the dashboard to mint one"}');
        return true;
      });
    } finally {
      await idp.close();
    }
  });
});

describeKeyStoreConformance({ describe, it, beforeEach, afterEach }, 'MemoryKeyStore', async () => ({
  store: new MemoryKeyStore({ minUseIntervalMs: 0 }),
}));
