// Roll and revoke all across two caching instances on PostgreSQL: an instance that holds the old
// key in memory (under its lease) learns the shortened expiry before roll resolves (migration 9
// announces it like a revocation), and drops every key of a revokeAll before it resolves.
import { sampleKeyRecord } from '@drops/auth/testing/conformance';
import { describe, expect, it } from 'vitest';
import { KEY_EVENTS_TABLE, KEYS_TABLE } from './key-store-migrations.js';
import { cachedOn } from './test-support/cached-on.js';
import { twoCachingStores } from './test-support/two-caching-stores.js';

const stores = twoCachingStores('roll');

describe('roll and revokeAll across caching instances', () => {
  it('B, holding the old key in memory, answers its new expiry from the moment roll resolves on A', async () => {
    const { a, b } = stores;
    const old = sampleKeyRecord({ accountId: 'acct_roll_cached' });
    await a.create(old);
    expect(await cachedOn(b, old.id)).toEqual({ id: old.id, accountId: 'acct_roll_cached', expiresAt: null });
    const key = sampleKeyRecord({ accountId: 'acct_roll_cached', createdAt: new Date() });
    const graceEndsAt = new Date(Math.floor(a.now() / 1000) * 1000 + 60_000);
    const event = { source: 'api', actor: 'user_1', ip: null, userAgent: null, url: null } as const;
    expect(await a.roll({ oldId: old.id, key, graceEndsAt, maxActive: 10, event })).toEqual({
      status: 'rolled',
      oldExpiresAt: graceEndsAt,
    });
    expect(await b.findActive(old.id)).toEqual({ id: old.id, accountId: 'acct_roll_cached', expiresAt: graceEndsAt });
    expect(await b.findActive(key.id)).toEqual({ id: key.id, accountId: 'acct_roll_cached', expiresAt: null });
  });

  it('B, holding every key in memory, refuses them all from the moment revokeAll resolves on A', async () => {
    const { a, b } = stores;
    const keys = [0, 1, 2].map(() => sampleKeyRecord({ accountId: 'acct_revoke_all_cached' }));
    for (const k of keys) await a.create(k);
    for (const k of keys) await cachedOn(b, k.id);
    expect(await a.revokeAll('acct_revoke_all_cached', { at: new Date() })).toBe(3);
    for (const k of keys) expect(await b.findActive(k.id)).toBeNull();
  });

  it('revokeAll of an account with 12,001 keys revokes every one, in one transaction of several statements', async () => {
    const { a, b, sql } = stores;
    const ids = Array.from({ length: 12_001 }, () => sampleKeyRecord().id);
    await sql.query(
      `insert into ${KEYS_TABLE} (id, account_id, prefix, created_at) select id, 'acct_revoke_all_many', left(id, 10), now() from unnest($1::text[]) as id`,
      [ids],
    );
    const other = sampleKeyRecord({ accountId: 'acct_revoke_all_other' });
    await a.create(other);
    expect(await a.revokeAll('acct_revoke_all_many', { at: new Date() })).toBe(ids.length);
    const { rows } = await sql.query<{ active: number; events: number }>(
      `select (select count(*)::int from ${KEYS_TABLE} where account_id = $1 and revoked_at is null) as active,
              (select count(*)::int from ${KEY_EVENTS_TABLE} where account_id = $1 and type = 'revoked') as events`,
      ['acct_revoke_all_many'],
    );
    expect(rows[0]).toEqual({ active: 0, events: ids.length });
    for (const id of [ids[0]!, ids[5_000]!, ids[12_000]!]) expect(await b.findActive(id)).toBeNull();
    expect(await b.findActive(other.id)).toEqual({ id: other.id, accountId: 'acct_revoke_all_other', expiresAt: null });
  });
});
