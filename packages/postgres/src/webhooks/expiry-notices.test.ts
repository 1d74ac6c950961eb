// The expiry notices table holds one row per key and lead time while the key can still expire:
// the sweep that writes the notices forgets those of keys expired or revoked, a batch at a time.
import { createKeyManager, createWebhookSettings, type KeyManager, type Principal } from '@drops/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromPgPool } from '../from-pg-pool.js';
import { EXPIRY_NOTICES_TABLE, KEYS_TABLE, migrateKeyStore } from '../key-store-migrations.js';
import { PostgresKeyStore } from '../postgres-key-store.js';
import type { Queryable } from '../queryable.js';
import { freshDatabase, type FreshDatabase } from '../test-support/fresh-database.js';
import { writeExpiryNotices } from './expiry-notices.js';
import { PostgresWebhookStore } from './postgres-webhook-store.js';

let database: FreshDatabase;
let db: Queryable;
let store: PostgresKeyStore;
let keys: KeyManager;

const owner: Principal = {
  accountId: 'acct_notices',
  credential: 'id_token',
  claims: { sub: 'acct_notices', iss: 'https://issuer.test', aud: 'webhooks', iat: 1, exp: 2 },
};

beforeAll(async () => {
  database = await freshDatabase('expiry_notices');
  db = fromPgPool(database.pool());
  await migrateKeyStore(db);
  store = new PostgresKeyStore({ db: fromPgPool(database.pool()), closeDatabase: true });
  keys = createKeyManager({
    keyStore: store,
    mintRateLimit: false,
    webhooks: createWebhookSettings({ store: new PostgresWebhookStore({ db }), allowLoopbackHttp: true }),
  });
  await keys.webhook.set(owner, { url: 'http://127.0.0.1:9/hooks' });
});

afterAll(async () => {
  await store?.close();
  await db?.close();
  await database?.drop();
});

/** The notice rows, as `<key id>:<days>`, sorted. */
async function noticeRows(): Promise<string[]> {
  const { rows } = await db.query<{ row: string }>(`select key_id || ':' || days as row from ${EXPIRY_NOTICES_TABLE}`);
  return rows.map((r) => r.row).sort();
}

const inDays = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString();

describe('writeExpiryNotices: pruning', () => {
  it("deletes the notice rows of keys expired or revoked, at most pruneLimit a call, and keeps the others'", async () => {
    const expiring = await keys.mint(owner, { expiresAt: inDays(3) });
    const revoked = await keys.mint(owner, { expiresAt: inDays(3) });
    const expired = await keys.mint(owner, { expiresAt: inDays(0.5) });
    expect((await writeExpiryNotices(db)).expiring).toBe(3);
    // One row per key and lead time: the key expiring within a day has its 7- and 1-day rows.
    expect(await noticeRows()).toEqual([`${expiring.id}:7`, `${revoked.id}:7`, `${expired.id}:7`, `${expired.id}:1`].sort());

    await keys.revoke(owner, revoked.id);
    await db.query(`update ${KEYS_TABLE} set expires_at = now() - interval '1 minute' where id = $1`, [expired.id]);
    expect(await writeExpiryNotices(db, { pruneLimit: 2 })).toMatchObject({ expiring: 0, pruned: 2 });
    expect(await noticeRows()).toHaveLength(2);
    expect(await writeExpiryNotices(db, { pruneLimit: 2 })).toMatchObject({ expiring: 0, pruned: 1 });
    expect(await noticeRows()).toEqual([`${expiring.id}:7`]);
    // Nothing left to prune, and the pruned keys are not noticed again.
    expect(await writeExpiryNotices(db)).toMatchObject({ expiring: 0, pruned: 0 });
    expect(await noticeRows()).toEqual([`${expiring.id}:7`]);
  });

  it('refuses a pruneLimit that is not a positive integer, before touching the database', async () => {
    await expect(writeExpiryNotices(db, { pruneLimit: 0 })).rejects.toThrow(TypeError);
    await expect(writeExpiryNotices(db, { pruneLimit: 1.5 })).rejects.toThrow(TypeError);
  });
});
