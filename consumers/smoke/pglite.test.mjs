// @drops/auth-postgres, packed, on embedded PGlite: the KeyStore conformance suite under node:test,
// and a store opened by openPGliteKeyStore. Both on copies of the PGlite cluster the suite's set-up
// made (consumers/src/packed-smoke.ts): initdb once, not on every Node version.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { describeKeyStoreConformance } from '@drops/auth/testing/conformance';
import { KEYS_TABLE, migrateKeyStore, openPGlite, openPGliteKeyStore, PostgresKeyStore } from '@drops/auth-postgres';
import { expectStoreAuthenticates } from './support.mjs';

const CLUSTER = process.env.DROPS_SMOKE_PGLITE_CLUSTER;
if (!CLUSTER) throw new Error('DROPS_SMOKE_PGLITE_CLUSTER: set by consumers/src/packed-smoke.ts, which runs this suite');
const copies = [];

/** A data folder of the test's own: a copy of the cluster (cp(1), a tenth of node's fs.cp CPU). */
function freshDataDir() {
  const parent = mkdtempSync(join(tmpdir(), 'drops-smoke-pglite-'));
  copies.push(parent);
  execFileSync('cp', ['-R', CLUSTER, join(parent, 'data')]);
  return join(parent, 'data');
}

after(() => {
  for (const parent of copies) rmSync(parent, { recursive: true, force: true });
});

describe('PGlite', () => {
  /** @type {import('@drops/auth-postgres').Queryable} */
  let db;

  before(async () => {
    db = await openPGlite({ dataDir: freshDataDir() });
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
    const keyStore = await openPGliteKeyStore({ dataDir: freshDataDir() });
    try {
      await expectStoreAuthenticates(keyStore);
    } finally {
      await keyStore.close();
    }
  });
});
