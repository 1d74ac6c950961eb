import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { bearer, startTestServer, type TestServer } from '../testing/test-server.js';

// Issue 21, item 2: an instance with the development identity provider, pointed at the database of
// a real one, mints an ID token for any name. The accounts of the two issuers must never meet: a
// key minted with a development token for `victim-prod` reaches nothing of the real `victim-prod`.
describe('a development instance on the database of a real one', () => {
  let db: TestDatabase;
  let real: TestServer;
  let dev: TestServer;
  beforeAll(async () => {
    db = await createTestDatabase();
    real = await startTestServer({ backend: 'postgres', databaseUrl: db.url });
    dev = await startTestServer({ backend: 'postgres', databaseUrl: db.url, idp: 'dev', env: { DEV_IDENTITY_PROVIDER: 'on' } });
  }, 60_000);
  afterAll(async () => {
    await dev?.close();
    await real?.close();
    await db?.drop();
  }, 30_000);

  it('cannot list, revoke or act for the real account of the same name', async () => {
    const victim = await real.mintKey('victim-prod', 'victim-ci');
    const attacker = await dev.mintKey('victim-prod', 'attacker');

    const who = await dev.fetch('/whoami', { headers: bearer(attacker.apiKey) });
    expect(((await who.json()) as { accountId: string }).accountId).not.toBe('victim-prod');
    const listed = (await (await dev.fetch('/keys', { headers: bearer(attacker.apiKey) })).json()) as { keys: Array<{ id: string }> };
    expect(listed.keys.map((k) => k.id)).toEqual([attacker.id]);
    expect((await dev.fetch(`/keys/${victim.id}`, { method: 'DELETE', headers: bearer(attacker.apiKey) })).status).toBe(404);
    const byToken = (await (await dev.fetch('/keys', { headers: bearer(await dev.token('victim-prod')) })).json()) as {
      keys: Array<{ id: string }>;
    };
    expect(byToken.keys.map((k) => k.id)).toEqual([attacker.id]);

    // The victim's key still works, on the real instance, for the victim.
    const still = await real.fetch('/whoami', { headers: bearer(victim.apiKey) });
    expect(still.status).toBe(200);
    expect(await still.json()).toEqual({ accountId: 'victim-prod', credential: 'api_key', keyId: victim.id });
    const theirs = (await (await real.fetch('/keys', { headers: bearer(victim.apiKey) })).json()) as { keys: Array<{ id: string }> };
    expect(theirs.keys.map((k) => k.id)).toEqual([victim.id]);
  }, 60_000);

  it('refuses a real token whose subject is in the development namespace', async () => {
    const res = await real.fetch('/whoami', { headers: bearer(real.idp!.mintIdToken({ sub: 'dev:victim-prod' })) });
    expect(res.status).toBe(401);
  });
});
