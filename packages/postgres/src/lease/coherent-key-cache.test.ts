import { decodeChange } from './change-message.js';
import { UnavailableError } from '@drops/auth';
import { sampleKeyRecord } from '@drops/auth/testing';
import { describe, expect, it } from 'vitest';
import { KEYS_TABLE } from '../key-store-migrations.js';
import { openPostgres } from '../open-postgres.js';
import type { PostgresKeyStore } from '../postgres-key-store.js';
import { CoherentKeyCache } from './coherent-key-cache.js';
import { KeyMembership } from './key-membership.js';
import { cachedOn } from '../test-support/cached-on.js';
import { countingQueryable } from '../test-support/counting-queryable.js';
import { eventually } from '../test-support/eventually.js';
import { storesPerTest } from '../test-support/stores-per-test.js';
import { untilAcknowledged } from '../test-support/until-acknowledged.js';
import type { RevocationWait } from './wait-for-acknowledgements.js';

// docs/revocation.md, on a real PostgreSQL: several stores on one database, some reaching it
// through a proxy the test cuts or black-holes.
const stores = storesPerTest('lease', { connectionTimeoutMs: 500, queryTimeoutMs: 500 });
const { store, proxied } = stores;

type Outcome = 'accepted' | 'refused' | 'unavailable';
async function outcome(s: PostgresKeyStore, id: string): Promise<Outcome> {
  try {
    return (await s.findActive(id)) === null ? 'refused' : 'accepted';
  } catch (error) {
    if (error instanceof UnavailableError && error.status === 503) return 'unavailable';
    throw error;
  }
}

describe('the lease-coherent key cache', () => {
  it('answers a key from memory after its first lookup: no query per request', async () => {
    const counting = countingQueryable(await openPostgres({ connectionString: stores.database.url }));
    const s = await store({ db: counting.db });
    const key = sampleKeyRecord({ accountId: 'acct_memory' });
    await s.create(key);
    await cachedOn(s, key.id);
    const before = counting.count();
    for (let i = 0; i < 1_000; i++) expect(s.findActive(key.id)).toEqual({ id: key.id, accountId: 'acct_memory', expiresAt: null });
    expect(counting.count() - before).toBe(0);
    // An unknown key is answered by the membership of active ids: no query either.
    const unknown = sampleKeyRecord().id;
    for (let i = 0; i < 3; i++) expect(s.findActive(unknown)).toBeNull();
    expect(counting.count() - before).toBe(0);
  });

  it('with cache: false, every lookup is a query', async () => {
    const counting = countingQueryable(await openPostgres({ connectionString: stores.database.url }));
    const s = await store({ db: counting.db, cache: false });
    const key = sampleKeyRecord();
    await s.create(key);
    for (let i = 0; i < 5; i++) expect(await s.findActive(key.id)).not.toBeNull();
    expect(counting.count('drops_auth_keys_find_active')).toBe(5);
  });

  it("a key revoked on instance A is refused on instance B the moment A's revoke returns", async () => {
    const waits: RevocationWait[] = [];
    const [a, b, c] = await Promise.all([store({ onRevocationWait: (w) => waits.push(w) }), store(), store()]);
    for (let round = 0; round < 20; round++) {
      const key = sampleKeyRecord({ accountId: 'acct_ab' });
      await a.create(key);
      await Promise.all([cachedOn(a, key.id), cachedOn(b, key.id), cachedOn(c, key.id)]);
      expect(await a.revoke('acct_ab', key.id, { at: new Date() })).toBe(true);
      // No wait, no retry: B and C refuse it now.
      expect(await b.findActive(key.id)).toBeNull();
      expect(await c.findActive(key.id)).toBeNull();
      expect(await a.findActive(key.id)).toBeNull();
    }
    expect(waits).toHaveLength(20);
    expect(waits.every((w) => w.expired === 0 && w.acknowledged >= 3)).toBe(true);
  });

  it('a revoke of an already revoked key answers false, after the same wait', async () => {
    const a = await store();
    const key = sampleKeyRecord({ accountId: 'acct_twice' });
    await a.create(key);
    expect(await a.revoke('acct_twice', key.id, { at: new Date() })).toBe(true);
    expect(await a.revoke('acct_twice', key.id, { at: new Date() })).toBe(false);
    expect(await a.revoke('acct_other', key.id, { at: new Date() })).toBe(false);
  });

  it('an operator revoking in SQL (drops_auth_revoke_key) goes through the same path', async () => {
    const [a, b] = await Promise.all([store(), store()]);
    const key = sampleKeyRecord({ accountId: 'acct_sql' });
    await a.create(key);
    await Promise.all([cachedOn(a, key.id), cachedOn(b, key.id)]);
    const { rows } = await stores.direct.query<{ revoked: boolean; revision: string }>(
      'select revoked, revision from drops_auth_revoke_key($1)',
      [key.id],
    );
    expect(rows[0]?.revoked).toBe(true);
    await untilAcknowledged(stores.direct, rows[0]!.revision);
    expect(await a.findActive(key.id)).toBeNull();
    expect(await b.findActive(key.id)).toBeNull();
    const { rows: stored } = await stores.direct.query(`select revoked_at is not null as revoked from ${KEYS_TABLE} where id = $1`, [
      key.id,
    ]);
    expect(stored).toEqual([{ revoked: true }]);
  });

  it('a partitioned instance (black hole) delays a revoke until its lease expires, and never accepts the key after', async () => {
    const { proxy, url } = await proxied();
    const waits: RevocationWait[] = [];
    const leaseMs = 1_500;
    const a = await store({ leaseMs, onRevocationWait: (w) => waits.push(w) });
    const b = await store({ url, leaseMs });
    const key = sampleKeyRecord({ accountId: 'acct_partition' });
    await a.create(key);
    await Promise.all([cachedOn(a, key.id), cachedOn(b, key.id)]);
    proxy.stall();
    expect(await a.revoke('acct_partition', key.id, { at: new Date() })).toBe(true);
    // B could not hear the revocation: the revoke waited for B's lease to expire instead.
    expect(waits).toEqual([expect.objectContaining({ expired: 1, acknowledged: 1 })]);
    // B's lease lapsed before its row expired: B asks the database, which it cannot reach: 503.
    expect(await outcome(b, key.id)).toBe('unavailable');
    proxy.restore();
    expect(await eventually(async () => ((await outcome(b, key.id)) === 'refused' ? 'refused' : undefined))).toBe('refused');
  });

  it('a LISTEN connection dropped alone: the instance lapses, and a revoke does not wait a lease for it', async () => {
    const waits: RevocationWait[] = [];
    const a = await store({ leaseMs: 60_000, onRevocationWait: (w) => waits.push(w) });
    const b = await store({ leaseMs: 60_000 });
    const key = sampleKeyRecord({ accountId: 'acct_listen' });
    await a.create(key);
    await Promise.all([cachedOn(a, key.id), cachedOn(b, key.id)]);
    // Terminate every listening session (A's and B's): their queries are the lease statements.
    const { rows } = await stores.direct.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and (query like 'with renewed%' or query like 'with gone%' or query like 'listen%')`,
      [stores.database.name],
    );
    expect(rows.length).toBe(2);
    for (const { pid } of rows) await stores.direct.query('select pg_terminate_backend($1)', [pid]);
    // A 60 s lease would hold this revoke for a minute (past the test's timeout); the new sessions
    // delete the old rows.
    expect(await a.revoke('acct_listen', key.id, { at: new Date() })).toBe(true);
    expect(await b.findActive(key.id)).toBeNull();
  });

  it('after the database goes away, cached keys are answered for at most one lease, then 503, never a 401', async () => {
    const { proxy, url } = await proxied();
    // A long lease, and a clock the test moves: the real renewals (every 20 s) never come due.
    let offset = 0;
    const monotonicNow = (): number => performance.now() + offset;
    const leaseMs = 60_000;
    const leaseMarginMs = 1_000;
    const createdAt = monotonicNow();
    const s = await store({ url, leaseMs, leaseMarginMs, monotonicNow });
    const key = sampleKeyRecord({ accountId: 'acct_gone' });
    await s.create(key);
    await cachedOn(s, key.id);
    const cachedAt = monotonicNow();
    proxy.stall();
    // Every lease deadline lies in [createdAt, cachedAt] + lease - margin.
    offset += createdAt + leaseMs - leaseMarginMs - 1 - monotonicNow();
    expect(s.findActive(key.id)).toEqual({ id: key.id, accountId: 'acct_gone', expiresAt: null });
    offset += cachedAt + leaseMs - monotonicNow();
    for (let i = 0; i < 3; i++) expect(await outcome(s, key.id)).toBe('unavailable');
    proxy.restore();
  });
});

describe('CoherentKeyCache, on an exact clock', () => {
  const key = Object.freeze({ id: 'k1', accountId: 'acct', expiresAt: null });

  function cacheAt(): { cache: CoherentKeyCache; clock: { now: number } } {
    const clock = { now: 1_000 };
    return { cache: new CoherentKeyCache(10, () => clock.now), clock };
  }

  it('answers only before the lease deadline, and empties itself at it', () => {
    const { cache, clock } = cacheAt();
    cache.granted(7_000, 0);
    cache.remember(key, cache.generation);
    clock.now = 6_999;
    expect(cache.get('k1')).toBe(key);
    clock.now = 7_000;
    expect(cache.get('k1')).toBeUndefined();
    // A renewal answered after the deadline is a new lease: nothing from before comes back.
    cache.renewed(12_000, 0);
    expect(cache.get('k1')).toBeUndefined();
  });

  it('keeps nothing read without a lease, across a lapse, or across a drop of any key', () => {
    const { cache, clock } = cacheAt();
    const beforeLease = cache.generation;
    cache.granted(7_000, 0);
    cache.remember(key, beforeLease);
    expect(cache.get('k1')).toBeUndefined();

    const beforeDrop = cache.generation;
    cache.drop('other');
    cache.remember(key, beforeDrop);
    expect(cache.get('k1')).toBeUndefined();

    const beforeLapse = cache.generation;
    cache.lapse();
    cache.granted(8_000, 0);
    cache.remember(key, beforeLapse);
    expect(cache.get('k1')).toBeUndefined();

    // An answer that arrives after the deadline is not kept (the clock is set back only to look).
    const stale = cache.generation;
    clock.now = 8_000;
    cache.remember(key, stale);
    clock.now = 1_000;
    expect(cache.get('k1')).toBeUndefined();
  });

  it('answers sign-out cut-offs only under the lease, in revision order, and asks the database while a bulk change is re-read', () => {
    const { cache, clock } = cacheAt();
    const cut = (accountId: string, validAfterMs: number | null) => ({ kind: 'session_cutoff', accountId, validAfterMs }) as const;
    cache.building();
    expect(cache.cutoff('acct_a')).toBeUndefined();
    cache.announced(6, cut('acct_b', 2_000)); // heard while the snapshot is read: applied after it
    cache.built(KeyMembership.of([]), 5, new Map([['acct_a', 1_000]]));
    cache.granted(7_000, 6);
    expect([cache.cutoff('acct_a'), cache.cutoff('acct_b'), cache.cutoff('acct_c')]).toEqual([1_000, 2_000, null]);
    cache.announced(7, cut('acct_a', 3_000));
    cache.announced(7, cut('acct_a', 9_999)); // a revision applied already: ignored
    cache.announced(8, cut('acct_b', null)); // its row deleted
    expect([cache.cutoff('acct_a'), cache.cutoff('acct_b')]).toEqual([3_000, null]);

    cache.announced(9, decodeChange('!')); // a bulk change: cut-offs too may have changed unannounced
    cache.announced(10, cut('acct_c', 4_000));
    expect(cache.cutoff('acct_a')).toBeUndefined();
    cache.rebuilt(KeyMembership.of([]), 9, new Map([['acct_a', 5_000]]));
    expect([cache.cutoff('acct_a'), cache.cutoff('acct_c')]).toEqual([5_000, 4_000]); // the snapshot, then what came after it

    clock.now = 7_000; // the lease ran out: no answer from memory
    expect(cache.cutoff('acct_a')).toBeUndefined();
  });

  it('answers from the membership only once it has applied every revision its lease claims', () => {
    const { cache, clock } = cacheAt();
    const member = `0123abcd${'0'.repeat(56)}`;
    const minted = `89abcdef${'0'.repeat(56)}`;
    cache.building();
    cache.announced(6, decodeChange(`+${minted}`)); // heard while the set is read: applied after it
    cache.built(KeyMembership.of([member]), 5);
    cache.granted(7_000, 6);
    expect(cache.held).toBe(true);
    expect(cache.get(member)).toBeUndefined(); // a possible member: the database decides
    expect(cache.get(minted)).toBeUndefined();
    expect(cache.get(`ffffffff${'0'.repeat(56)}`)).toBeNull(); // certainly not active: no query
    cache.announced(7, decodeChange(member)); // revoked
    expect(cache.get(member)).toBeNull();

    // A lapse on a live session, then a renewal that reads revision 9: until 8 and 9 are applied
    // (a mint among them), the set does not answer.
    clock.now = 7_000;
    expect(cache.held).toBe(false);
    cache.renewed(12_000, 9);
    const later = `44444444${'0'.repeat(56)}`;
    expect(cache.held).toBe(false);
    expect(cache.get(later)).toBeUndefined();
    cache.announced(8, decodeChange(`+${later}`));
    expect(cache.held).toBe(false);
    cache.announced(9, decodeChange(`+${`55555555${'0'.repeat(56)}`}`));
    expect(cache.held).toBe(true);
    expect(cache.get(later)).toBeUndefined();
    expect(cache.get(`ffffffff${'0'.repeat(56)}`)).toBeNull();
  });

  it('after a bulk change every miss goes to the database, until a membership read after it replaces the stale one', () => {
    const { cache } = cacheAt();
    const id = (head: string): string => `${head}${'0'.repeat(56)}`;
    cache.building();
    cache.built(KeyMembership.of([id('11111111')]), 5);
    cache.granted(7_000, 5);
    expect(cache.get(id('22222222'))).toBeNull();
    cache.announced(6, decodeChange('!')); // one INSERT of many keys: which ids, the database knows
    expect(cache.stale).toBe(true);
    expect(cache.held).toBe(true); // still answering, by asking the database
    expect(cache.get(id('22222222'))).toBeUndefined();
    cache.announced(7, decodeChange(id('11111111'))); // revoked meanwhile, heard while stale
    cache.announced(9, decodeChange(`+${id('33333333')}`)); // minted after the re-read's snapshot

    // A re-read from before the bulk change does not hold its keys: refused, still stale.
    cache.rebuilt(KeyMembership.of([id('11111111')]), 5);
    expect(cache.stale).toBe(true);
    expect(cache.get(id('22222222'))).toBeUndefined();

    // Read at 8: the bulk keys and the revocation of 7 are in it; 9 is applied on top.
    cache.rebuilt(KeyMembership.of([id('22222222')]), 8);
    expect(cache.stale).toBe(false);
    expect(cache.get(id('22222222'))).toBeUndefined(); // a member: the database decides
    expect(cache.get(id('33333333'))).toBeUndefined();
    expect(cache.get(id('11111111'))).toBeNull();
    expect(cache.get(id('44444444'))).toBeNull();
    cache.announced(8, decodeChange(`+${id('44444444')}`)); // late, and in the snapshot already: not applied twice
    expect(cache.get(id('44444444'))).toBeNull();

    // A bulk change after the snapshot, heard before the re-read arrived: stale again.
    cache.announced(10, decodeChange('!'));
    cache.announced(12, decodeChange(`+${id('55555555')}`));
    cache.rebuilt(KeyMembership.of([id('22222222')]), 9);
    expect(cache.stale).toBe(true);
    cache.rebuilt(KeyMembership.of([id('66666666')]), 11);
    expect(cache.stale).toBe(false);
    expect(cache.get(id('55555555'))).toBeUndefined();
    expect(cache.get(id('66666666'))).toBeUndefined();
    expect(cache.get(id('22222222'))).toBeNull();
  });

  it('a bulk change empties the kept keys (it may have revoked them), and a read from before it is not kept', () => {
    const { cache } = cacheAt();
    cache.building();
    cache.built(KeyMembership.of([]), 5);
    cache.granted(7_000, 5);
    cache.remember(key, cache.generation);
    const readBefore = cache.generation;
    expect(cache.get('k1')).toBe(key);
    cache.announced(6, decodeChange('!')); // a transaction revoked more keys than are announced one by one
    expect(cache.get('k1')).toBeUndefined(); // the database decides
    cache.remember(key, readBefore);
    expect(cache.get('k1')).toBeUndefined();
  });

  it('a renewal in time extends the lease and keeps what it holds', () => {
    const { cache, clock } = cacheAt();
    cache.granted(7_000, 0);
    cache.remember(key, cache.generation);
    clock.now = 3_000;
    cache.renewed(9_000, 0);
    clock.now = 8_999;
    expect(cache.get('k1')).toBe(key);
    cache.drop('k1');
    expect(cache.get('k1')).toBeUndefined();
  });

  it('under an endless lease (an in-process database) answers without reading the clock', () => {
    let reads = 0;
    const cache = new CoherentKeyCache(10, () => {
      reads++;
      return 1_000;
    });
    cache.granted(Number.POSITIVE_INFINITY, 0);
    cache.remember(key, cache.generation);
    reads = 0;
    for (let i = 0; i < 3; i++) expect(cache.get('k1')).toBe(key);
    expect(reads).toBe(0);
    // A lease with a deadline is checked against the clock on every answer.
    const leased = new CoherentKeyCache(10, () => {
      reads++;
      return 1_000;
    });
    leased.granted(7_000, 0);
    leased.remember(key, leased.generation);
    reads = 0;
    expect(leased.get('k1')).toBe(key);
    expect(reads).toBe(1);
  });
});
