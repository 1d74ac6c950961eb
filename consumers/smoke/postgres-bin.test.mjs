// The `drops-auth-postgres` command of the packed @drops/auth-postgres, run by Node from
// node_modules/.bin, on the test PostgreSQL (127.0.0.1:5432, or DROPS_TEST_POSTGRES_URL), in scratch
// databases of its own: migrations as a deploy step, and the `sql` script applied with psql.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { openPostgresKeyStore } from '@drops/auth-postgres';
import pg from 'pg';
import { expectStoreAuthenticates } from './support.mjs';

const ADMIN_URL = process.env.DROPS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BIN = fileURLToPath(new URL('../node_modules/.bin/drops-auth-postgres', import.meta.url));
/** @type {string[]} */
const names = [];

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

async function scratchDatabase() {
  const name = `drops_smoke_bin_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin(`create database ${name}`);
  names.push(name);
  return Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();
}

/** @param {string[]} args @param {string} [databaseUrl] */
function bin(args, databaseUrl = '') {
  return spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: 'utf8' });
}

describe('drops-auth-postgres, from the tarball', () => {
  after(async () => {
    for (const name of names) await admin(`drop database if exists ${name} with (force)`);
  });

  it('migrate twice, then status 0', async () => {
    const url = await scratchDatabase();
    assert.equal(bin(['migrate'], url).status, 0);
    assert.equal(bin(['migrate'], url).stdout, 'up to date: nothing to apply\n');
    assert.equal(bin(['status'], url).status, 0);
  });

  it('on a fresh database status is 1; sql applied with psql; status 0; openPostgresKeyStore opens it with or without migrate: false', async () => {
    const url = await scratchDatabase();
    assert.equal(bin(['status'], url).status, 1);
    const script = bin(['sql']);
    assert.equal(script.status, 0);
    const psql = spawnSync('psql', [url, '-q', '-v', 'ON_ERROR_STOP=1'], { input: script.stdout, encoding: 'utf8' });
    assert.equal(psql.status, 0, psql.stderr);
    assert.equal(bin(['status'], url).status, 0);
    for (const migrate of [false, true]) {
      const keyStore = await openPostgresKeyStore({ connectionString: url, migrate });
      try {
        await expectStoreAuthenticates(keyStore);
      } finally {
        await keyStore.close();
      }
    }
  });
});
