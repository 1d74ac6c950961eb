// @drops/auth-postgres, packed, on embedded PGlite: the KeyStore conformance suite under node:test
// in memory, and a store opened as the README opens it.
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { describeKeyStoreConformance } from '@drops/auth/testing/conformance';
import { KEYS_TABLE, migrateKeyStore, openPGlite, openPGliteKeyStore, PostgresKeyStore } from '@drops/auth-postgres';
import { expectStoreAuthenticates } from './support.mjs';

describe('PGlite', () => {
  /** @type {import('@drops/auth-postgres').Queryable} */
  let db;

  before(async () => {
    db = await openPGlite({ dataDir: ':memory:' });
    await migrateKeyStore(db);
  });
  after(() => db?.close());

  describeKeyStoreConformance(
    { describe, it, beforeEach, afterEach },
    'PostgresKeyStore on PGlite in memory',
    async () => {
      await db.query(`truncate ${KEYS_TABLE}`);
      const store = new PostgresKeyStore({ db, minUseIntervalMs: 0 });
      const peer = new PostgresKeyStore({ db, minUseIntervalMs: 0 });
      return {
        store,
        peer,
        flushUses: () => store.flushUses(),
        cleanup: async () => void (await Promise.all([store.close(), peer.close()])),
      };
    },
    { shared: true },
  );

  it('openPGliteKeyStore: migrates, authenticates, revokes', async () => {
    const keyStore = await openPGliteKeyStore({ dataDir: ':memory:' });
    try {
      await expectStoreAuthenticates(keyStore);
    } finally {
      await keyStore.close();
    }
  });
});
