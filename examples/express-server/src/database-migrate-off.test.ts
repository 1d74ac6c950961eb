// DATABASE_MIGRATE=off: migrations are a deploy step, the runtime role creates nothing (issue 24).
import { grantKeyStoreSql, openPostgres } from '@drops/auth-postgres';
import { LocalIdentityProvider } from '@drops/auth/testing';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from './db/open-database.js';
import { createTestDatabase, TEST_POSTGRES_URL, type TestDatabase } from './testing/test-database.js';
import { bearer, startTestServer, type TestServer } from './testing/test-server.js';

let idp: LocalIdentityProvider;
const databases: TestDatabase[] = [];
const role = `drops_runtime_${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  idp = await LocalIdentityProvider.start();
});

afterAll(async () => {
  await idp?.close();
  for (const database of databases) await database.drop();
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`drop role if exists ${role}`);
  } finally {
    await admin.end();
  }
});

async function database(): Promise<TestDatabase> {
  const created = await createTestDatabase();
  databases.push(created);
  return created;
}

describe('DATABASE_MIGRATE=off', () => {
  it('refuses to start on an empty database, naming drops-auth-postgres migrate', async () => {
    const empty = await database();
    await expect(startTestServer({ backend: 'postgres', databaseUrl: empty.url, idp, env: { DATABASE_MIGRATE: 'off' } })).rejects.toThrow(
      /drops-auth-postgres migrate/,
    );
  });

  it('two servers running as a role made by grant, with no CREATE right, mint, use and revoke (by id and by value) across each other', async () => {
    const shared = await database();
    const owner = await openPostgres({ connectionString: shared.url, maxConnections: 1 });
    try {
      // The deploy step, as the owner: migrations, then the runtime role's grants.
      await owner.exec(`create role ${role} login; revoke create on schema public from public`);
      await migrateDatabase(owner);
      await owner.exec(grantKeyStoreSql(role));
      await owner.exec(`grant select, insert, update, delete on drops, vanity_names, billing_accounts to ${role}`);
    } finally {
      await owner.close();
    }
    const asRole = new URL(shared.url);
    asRole.username = role;
    const options = { backend: 'postgres', databaseUrl: asRole.toString(), idp, env: { DATABASE_MIGRATE: 'off' } } as const;
    const servers: TestServer[] = [];
    try {
      servers.push(...(await Promise.all([startTestServer(options), startTestServer(options)])));
      const [a, b] = servers as [TestServer, TestServer];
      const { apiKey, id } = await a.mintKey('acct_runtime');
      expect((await b.fetch('/whoami', { headers: bearer(apiKey) })).status).toBe(200);
      expect((await b.fetch(`/keys/${id}`, { method: 'DELETE', headers: bearer(apiKey) })).status).toBe(204);
      expect((await a.fetch('/whoami', { headers: bearer(apiKey) })).status).toBe(401);
      expect((await b.fetch('/whoami', { headers: bearer(apiKey) })).status).toBe(401);
      // Revoke by value records the request (its own table) as the runtime role, then revokes.
      const leaked = await a.mintKey('acct_runtime');
      const revokeByValue = await b.fetch('/credentials/revoke', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ credentials: [leaked.apiKey] }),
      });
      expect(revokeByValue.status).toBe(202);
      let status = 200;
      for (let attempt = 0; attempt < 100 && status !== 401; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = (await a.fetch('/whoami', { headers: bearer(leaked.apiKey) })).status;
      }
      expect(status).toBe(401);
      await expect(a.running.db.query('create table mischief (id int)')).rejects.toThrow(/permission denied/);
    } finally {
      for (const server of servers) await server.close();
    }
  });
});
