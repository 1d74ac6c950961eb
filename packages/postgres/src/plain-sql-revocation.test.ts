// Issue 24, item 3: a revocation made in plain SQL (an UPDATE of revoked_at, for one key or a whole
// account; a DELETE of the row) is announced by a trigger, so an instance that cached the key drops
// it as for drops_auth_revoke_key. Before migration 5, only the function announced: an instance
// went on accepting a key revoked by a plain UPDATE for as long as it kept it in memory. A change
// of an active key's expiry is announced too, whichever way it goes (migration 14).
import { sampleKeyRecord } from '@drops/auth/testing/conformance';
import { describe, expect, it } from 'vitest';
import { KEY_EVENTS_TABLE, KEYS_TABLE, REVISION_TABLE } from './key-store-migrations.js';
import { cachedOn } from './test-support/cached-on.js';
import { revisionRowUpdates } from './test-support/revision-row-updates.js';
import { twoCachingStores } from './test-support/two-caching-stores.js';

/** Two caching instances, A and B, and the operator's connection (`sql`): plain SQL, no store. */
const stores = twoCachingStores('plain_sql_revocation');

/** What an operator waits for after a plain-SQL change: no caching instance left behind the current revision. */
async function untilNoInstanceIsBehind(): Promise<void> {
  for (;;) {
    const { rows } = await stores.sql.query<{ pending: number }>(
      `select drops_auth_revocation_pending(r.revision) as pending from ${REVISION_TABLE} r`,
    );
    if (rows[0]?.pending === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Keys of `accountId`, created and answered from memory by both instances. */
async function cachedKeys(accountId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const key = sampleKeyRecord({ accountId });
    await stores.a.create(key);
    expect(await cachedOn(stores.a, key.id)).toEqual({ id: key.id, accountId, expiresAt: null });
    expect(await cachedOn(stores.b, key.id)).toEqual({ id: key.id, accountId, expiresAt: null });
    ids.push(key.id);
  }
  return ids;
}

async function refusedEverywhere(ids: readonly string[]): Promise<void> {
  await untilNoInstanceIsBehind();
  for (const id of ids) {
    expect(await stores.a.findActive(id)).toBeNull();
    expect(await stores.b.findActive(id)).toBeNull();
  }
}

describe('a revocation in plain SQL reaches every caching instance', () => {
  it('UPDATE of revoked_at for one key', async () => {
    const [id, kept] = await cachedKeys('acct_plain_one', 2);
    await stores.sql.query(`update ${KEYS_TABLE} set revoked_at = now() where id = $1`, [id]);
    await refusedEverywhere([id!]);
    expect(stores.a.findActive(kept!)).toEqual({ id: kept, accountId: 'acct_plain_one', expiresAt: null }); // the other key is still answered from memory
  });

  it('UPDATE of revoked_at for every key of an account', async () => {
    const ids = await cachedKeys('acct_plain_all', 3);
    await stores.sql.query(`update ${KEYS_TABLE} set revoked_at = now() where account_id = $1 and revoked_at is null`, ['acct_plain_all']);
    await refusedEverywhere(ids);
  });

  it('DELETE of the row', async () => {
    const [id] = await cachedKeys('acct_plain_delete', 1);
    await stores.sql.query(`delete from ${KEYS_TABLE} where id = $1`, [id]);
    await refusedEverywhere([id!]);
  });

  it('UPDATE that moves an active key to another account', async () => {
    const [id] = await cachedKeys('acct_plain_moved', 1);
    await stores.sql.query(`update ${KEYS_TABLE} set account_id = 'acct_plain_elsewhere' where id = $1`, [id]);
    await untilNoInstanceIsBehind();
    expect(await stores.a.findActive(id!)).toEqual({ id, accountId: 'acct_plain_elsewhere', expiresAt: null });
    expect(await stores.b.findActive(id!)).toEqual({ id, accountId: 'acct_plain_elsewhere', expiresAt: null });
  });

  it('and the revocation function still returns the revision it took, once per key', async () => {
    const [id] = await cachedKeys('acct_plain_function', 1);
    const before = (await stores.sql.query<{ revision: string }>(`select revision from ${REVISION_TABLE}`)).rows[0]!.revision;
    const { rows } = await stores.sql.query<{ revoked: boolean; revision: string }>(
      'select revoked, revision from drops_auth_revoke_key($1)',
      [id],
    );
    expect(rows).toEqual([{ revoked: true, revision: String(Number(before) + 1) }]);
    expect((await stores.sql.query(`select revoked_revision from ${KEYS_TABLE} where id = $1`, [id])).rows).toEqual([
      { revoked_revision: rows[0]!.revision },
    ]);
    await refusedEverywhere([id!]);
  });

  it('revoking 2,000 keys in one transaction takes 2,000 consecutive revisions, updating the revision row once before the commit', async () => {
    const ids = Array.from({ length: 2_000 }, () => sampleKeyRecord().id);
    await stores.sql.query(
      `insert into ${KEYS_TABLE} (id, account_id, prefix, created_at) select id, 'acct_plain_many', left(id, 10), now() from unnest($1::text[]) as id`,
      [ids],
    );
    await untilNoInstanceIsBehind();
    expect(await stores.b.findActive(ids[0]!)).toEqual({ id: ids[0], accountId: 'acct_plain_many', expiresAt: null });
    const { updates, revisions } = await stores.sql.transaction(async (tx) => {
      const before = await revisionRowUpdates(tx);
      const { rows } = await tx.query<{ revoked: boolean; revision: string }>(
        'select f.revoked, f.revision::text as revision from unnest($1::text[]) as r(id), lateral drops_auth_revoke_key(r.id) f',
        [ids],
      );
      expect(rows.every((r) => r.revoked)).toBe(true);
      // Once per revision, each update walked every version the transaction had made: quadratic.
      return { updates: (await revisionRowUpdates(tx)) - before, revisions: rows.map((r) => Number(r.revision)) };
    });
    expect(updates).toBe(1);
    const sorted = [...revisions].sort((x, y) => x - y);
    expect(new Set(sorted).size).toBe(ids.length);
    expect(sorted[sorted.length - 1]! - sorted[0]!).toBe(ids.length - 1);
    // Committed: the row holds the last revision taken, which every instance then acknowledges.
    const { rows } = await stores.sql.query<{ revision: string }>(`select revision::text as revision from ${REVISION_TABLE}`);
    expect(Number(rows[0]!.revision)).toBe(sorted[sorted.length - 1]);
    await refusedEverywhere(ids.filter((_, i) => i % 50 === 0));
  });

  it("the commit-time check for a revocation's event looks the key up by index, not by reading the whole event log", async () => {
    // Every revocation (the API's too: drops_auth_revoke_key updates revoked_at) runs migration
    // 10's deferred trigger, which asks whether the key's 'revoked' event exists. Without an index
    // on the key, that is a scan of every event ever written, at every revocation's commit.
    const plan = await stores.sql.transaction(async (tx) => {
      await tx.query('set local enable_seqscan = off');
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(
        `explain select 1 from ${KEY_EVENTS_TABLE} e where e.key_id = $1 and e.type = 'revoked'`,
        ['0'.repeat(64)],
      );
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain(`${KEY_EVENTS_TABLE}_revoked_by_key`);
    expect(plan).not.toContain('Seq Scan');
  });

  describe('and so does a change of an active key expiry, lengthened as well as shortened', () => {
    /** A key of `accountId` that expired a minute ago, held in memory by both instances. */
    async function expiredKey(accountId: string): Promise<string> {
      const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
      const key = sampleKeyRecord({ accountId, expiresAt });
      await stores.a.create(key);
      for (const s of [stores.a, stores.b]) expect(await cachedOn(s, key.id)).toEqual({ id: key.id, accountId, expiresAt });
      return key.id;
    }

    async function answeredEverywhere(id: string, expected: { accountId: string; expiresAt: Date | null }): Promise<void> {
      await untilNoInstanceIsBehind();
      for (const s of [stores.a, stores.b]) expect(await s.findActive(id)).toEqual({ id, ...expected });
    }

    // Before migration 14 only a shorter expiry was announced: both instances kept refusing the
    // key from the copy they held, while an instance started afterwards accepted it.
    it('an expired key given another hour is accepted by every instance', async () => {
      const id = await expiredKey('acct_plain_lengthened');
      const { rows } = await stores.sql.query<{ expires_at: Date }>(
        `update ${KEYS_TABLE} set expires_at = date_trunc('second', now()) + interval '1 hour' where id = $1 returning expires_at`,
        [id],
      );
      await answeredEverywhere(id, { accountId: 'acct_plain_lengthened', expiresAt: rows[0]!.expires_at });
    });

    it('an expired key whose expiry is cleared is accepted by every instance, with none', async () => {
      const id = await expiredKey('acct_plain_cleared');
      await stores.sql.query(`update ${KEYS_TABLE} set expires_at = null where id = $1`, [id]);
      await answeredEverywhere(id, { accountId: 'acct_plain_cleared', expiresAt: null });
    });

    it('a key given an expiry it did not have is held to it by every instance', async () => {
      const [id] = await cachedKeys('acct_plain_shortened', 1);
      const { rows } = await stores.sql.query<{ expires_at: Date }>(
        `update ${KEYS_TABLE} set expires_at = date_trunc('second', now()) - interval '1 minute' where id = $1 returning expires_at`,
        [id],
      );
      await answeredEverywhere(id!, { accountId: 'acct_plain_shortened', expiresAt: rows[0]!.expires_at });
    });
  });

  // Last: it empties the table.
  it('TRUNCATE of the table', async () => {
    const ids = await cachedKeys('acct_plain_truncate', 2);
    await stores.sql.query(`truncate ${KEYS_TABLE}`);
    await refusedEverywhere(ids);
  });
});
