// Every entry of the packed packages, imported as ESM.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

const ENTRIES = {
  '@drops/auth': [
    'createAuthenticator',
    'createIdTokenVerifier',
    'createKeyManager',
    'MemoryKeyStore',
    'firebase',
    'withAuth',
    'keysHandler',
    'isDropsAuthError',
  ],
  '@drops/auth/testing': ['LocalIdentityProvider', 'snapshotOf', 'UNIFORM_401'],
  '@drops/auth/testing/conformance': ['describeKeyStoreConformance', 'describeKeyRoutes', 'describeLeakedKeysRoutes'],
  '@drops/auth/adapter': ['createKeyRoutes', 'createLeakedKeyRoutes', 'authorizationOfNodeRequest', 'writeNodeAnswer', 'answerResponse'],
  '@drops/auth-express': ['dropsAuth', 'principalOf', 'respondWithError'],
  '@drops/auth-koa': ['dropsAuth', 'principalOf', 'respondWithError'],
  '@drops/auth-fastify': ['dropsAuth', 'principalOf', 'respondWithError'],
  '@drops/auth-hono': ['dropsAuth'],
  '@drops/auth-nestjs': ['DropsAuthModule', 'DropsAuthGuard', 'DropsIdTokenGuard', 'DropsAuthErrorFilter', 'Principal'],
  '@drops/auth-postgres': [
    'openPostgresKeyStore',
    'openPGliteKeyStore',
    'PostgresKeyStore',
    'migrate',
    'grantKeyStoreSql',
    'migrationsAsSql',
  ],
};

describe('ESM: import', () => {
  for (const [entry, names] of Object.entries(ENTRIES)) {
    it(entry, async () => {
      const module = await import(entry);
      for (const name of names) assert.notEqual(module[name], undefined, `${entry} exports ${name}`);
    });
  }
});
