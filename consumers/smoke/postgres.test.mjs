// @drops/auth-postgres, packed, on the test PostgreSQL (127.0.0.1:5432, or DROPS_TEST_POSTGRES_URL)
// through `pg`, in a scratch database of its own: the KeyStore conformance suite under node:test,
// and a store opened as the README opens it.
import { randomBytes } from 'node:crypto';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { describeKeyStoreConformance } from '@drops/auth/testing/conformance';
import { fromPgPool, KEYS_TABLE, migrateKeyStore, openPostgresKeyStore, PostgresKeyStore } from '@drops/auth-postgres';
import pg from 'pg';
import { expectStoreAuthenticates } from './support.mjs';

const ADMIN_URL = process.env.DROPS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `drops_smoke_${process.pid}_${randomBytes(4).toString('hex')}`;
const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();

/** @param {string} sql */
async function admin(sql) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('PostgreSQL through pg', () => {
  /** @type {import('@drops/auth-postgres').Queryable} */
  let db;
  /** @type {import('@drops/auth-postgres').Queryable} */
  let peerDb;

  before(async () => {
    await admin(`create database ${name}`);
    db = fromPgPool(new pg.Pool({ connectionString: url }));
    peerDb = fromPgPool(new pg.Pool({ connectionString: url }));
    await migrateKeyStore(db);
  });

  after(async () => {
    await Promise.all([db?.close(), peerDb?.close()]);
    await admin(`drop database if exists ${name} with (force)`);
  });

  describeKeyStoreConformance(
    { describe, it, beforeEach, afterEach },
    'PostgresKeyStore',
    async () => {
      await db.query(`truncate ${KEYS_TABLE}`);
      const store = new PostgresKeyStore({ db, minUseIntervalMs: 0 });
      const peer = new PostgresKeyStore({ db: peerDb, minUseIntervalMs: 0 });
      return {
        store,
        peer,
        flushUses: () => store.flushUses(),
        cleanup: async () => void (await Promise.all([store.close(), peer.close()])),
      };
    },
    { shared: true },
  );

  it('openPostgresKeyStore: migrates, authenticates, revokes', async () => {
    const keyStore = await openPostgresKeyStore({ connectionString: url });
    try {
      await expectStoreAuthenticates(keyStore);
    } finally {
      await keyStore.close();
    }
  });
});
