import assert from 'node:assert/strict';
import { generateApiKey } from '../api-key/generate-api-key.js';
import type { KeyEvent, KeyEventContext, KeyEventPage } from '../key-store/key-event.js';
import type { KeyEventLog } from '../key-store/key-event-log.js';
import {
  describeConformance,
  type ConformancePart,
  type ConformanceTestApi,
  type KeyStoreCapabilities,
  type StoreHarness,
} from './conformance-suite.js';
import { ROLL_EVENT, rollOf } from './key-roll-conformance.js';
import { sampleKeyRecord } from './sample-key-record.js';
import type { KeyEventLogUnderTest } from './stores-under-test.js';

/** A fresh account id, so a test sees only its own events whatever the store kept before. */
function freshAccount(label: string): string {
  return `acct_${label}_${generateApiKey().id.slice(0, 12)}`;
}

const SCANNING: KeyEventContext = {
  source: 'github_secret_scanning',
  actor: 'github',
  ip: '192.0.2.10',
  userAgent: 'GitHub-Hookshot/abc123',
  url: 'https://github.com/octo/repo/blob/main/.env',
};

/** Every event of the account, newest first, page after page. */
async function allEvents(store: KeyEventLog, accountId: string, limit = 100): Promise<KeyEvent[]> {
  const events: KeyEvent[] = [];
  let page: KeyEventPage = await store.listEvents(accountId, { limit });
  events.push(...page.events);
  while (page.next !== null) {
    page = await store.listEvents(accountId, { limit, cursor: page.next });
    events.push(...page.events);
  }
  return events;
}

/** An event reduced to what a test compares. */
function summary(e: KeyEvent): Record<string, unknown> {
  return { type: e.type, keyId: e.keyId, source: e.source, actor: e.actor };
}

/** The key's `'expired'` events, after up to `rounds` pauses for a write in the background to land (a bounded count of checks). */
async function expiredEvents(
  store: KeyEventLog,
  accountId: string,
  keyId: string,
  rounds: number,
  until: (n: number) => boolean,
): Promise<KeyEvent[]> {
  let events: KeyEvent[] = [];
  for (let i = 0; i < rounds; i++) {
    const page = await store.listEvents(accountId, { limit: 20 });
    events = page.events.filter((e) => e.type === 'expired' && e.keyId === keyId);
    if (until(events.length)) return events;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return events;
}

/**
 * The event log's tests: what each write and note writes (minted, revoked, first_used, expired
 * once), paging with the cursor, one account's events only, no secret; and revocation by value,
 * whose events say where it came from.
 * @internal
 */
export const keyEventLogTests: ConformancePart<KeyEventLogUnderTest> = ({
  describe,
  it,
  harness,
  itShared,
  itPersistent,
  capabilities,
}) => {
  describe('KeyEventLog: key events', () => {
    it('writes a minted event with the context given, from create and createWithinLimit', async () => {
      const h = harness();
      const accountId = freshAccount('minted');
      const plain = sampleKeyRecord({ accountId, name: 'plain' });
      const limited = sampleKeyRecord({ accountId, name: null });
      const context: KeyEventContext = { source: 'api', actor: 'user_1', ip: '203.0.113.7', userAgent: 'curl/8.5.0', url: null };
      await h.store.create(plain, context);
      assert.equal(await h.store.createWithinLimit(limited, 10, { ...context, ip: null, userAgent: null }), true);
      assert.deepStrictEqual(await allEvents(h.store, accountId), [
        {
          type: 'minted',
          keyId: limited.id,
          prefix: limited.prefix,
          name: null,
          at: limited.createdAt,
          source: 'api',
          actor: 'user_1',
          ip: null,
          userAgent: null,
          url: null,
        },
        { type: 'minted', keyId: plain.id, prefix: plain.prefix, name: 'plain', at: plain.createdAt, ...context },
      ]);
    });

    it('writes a minted event attributed to the minting login when no context is given', async () => {
      const h = harness();
      const key = sampleKeyRecord({ accountId: freshAccount('minted_default') });
      await h.store.create(key);
      const [event] = await allEvents(h.store, key.accountId);
      assert.deepStrictEqual(event && summary(event), { type: 'minted', keyId: key.id, source: 'api', actor: key.provenance?.subject });
    });

    it('writes nothing when a mint is refused (limit reached or duplicate id)', async () => {
      const h = harness();
      const accountId = freshAccount('refused');
      const key = sampleKeyRecord({ accountId });
      await h.store.create(key);
      assert.equal(await h.store.createWithinLimit(sampleKeyRecord({ accountId }), 1), false);
      await assert.rejects(h.store.create({ ...key, name: 'again' }));
      assert.deepStrictEqual((await allEvents(h.store, accountId)).map(summary), [
        { type: 'minted', keyId: key.id, source: 'api', actor: key.provenance?.subject },
      ]);
    });

    it('writes a revoked event with the context and time of the revocation, and none for a refused one', async () => {
      const h = harness();
      const accountId = freshAccount('revoked');
      const key = sampleKeyRecord({ accountId });
      await h.store.create(key);
      const at = new Date('2026-04-05T06:07:08.009Z');
      const context: KeyEventContext = { source: 'api', actor: 'user_2', ip: '2001:db8::1', userAgent: 'drops-cli/1.0', url: null };
      assert.equal(await h.store.revoke('acct_not_the_owner', key.id, { at, event: context }), false);
      assert.equal(await h.store.revoke(accountId, key.id, { at, event: context }), true);
      assert.equal(await h.store.revoke(accountId, key.id, { at, event: context }), false);
      const [revoked, ...rest] = await allEvents(h.store, accountId);
      assert.deepStrictEqual(revoked, { type: 'revoked', keyId: key.id, prefix: key.prefix, name: key.name, at, ...context });
      assert.deepStrictEqual(
        rest.map((e) => e.type),
        ['minted'],
      );
      assert.deepStrictEqual(await allEvents(h.store, 'acct_not_the_owner'), []);
    });

    it('writes first_used once, at the first use, with what the request showed', async () => {
      const h = harness();
      const key = sampleKeyRecord({ accountId: freshAccount('first_used') });
      await h.store.create(key);
      const first = new Date('2026-05-01T10:00:00Z');
      h.store.recordUse(key.id, first, () => ({ ip: '198.51.100.4', userAgent: 'github-actions' }));
      await h.flushUses?.();
      h.store.recordUse(key.id, new Date('2026-05-01T11:00:00Z'), () => ({ ip: '198.51.100.5', userAgent: 'later' }));
      await h.flushUses?.();
      h.store.recordUse(key.id, new Date('2026-05-01T12:00:00Z'));
      await h.flushUses?.();
      const events = await allEvents(h.store, key.accountId);
      assert.deepStrictEqual(
        events.map((e) => e.type),
        ['first_used', 'minted'],
      );
      assert.deepStrictEqual(events[0], {
        type: 'first_used',
        keyId: key.id,
        prefix: key.prefix,
        name: key.name,
        at: first,
        source: 'api',
        actor: key.id,
        ip: '198.51.100.4',
        userAgent: 'github-actions',
        url: null,
      });
    });

    // Uses may be written in batches, seconds later; a revocation in between must not leave the
    // key's first use after its revocation in the log (a use of a revoked key, as it would read).
    for (const [name, revoke] of [
      ['revoke', (store: KeyEventLogUnderTest, accountId: string, id: string) => store.revoke(accountId, id, { at: new Date() })],
      [
        'revokeMany',
        (store: KeyEventLogUnderTest, _accountId: string, id: string) =>
          store.revokeMany([id], {
            at: new Date(),
            event: { source: 'revoke_by_value', actor: null, ip: null, userAgent: null, url: null },
          }),
      ],
      ['revokeAll', (store: KeyEventLogUnderTest, accountId: string) => store.revokeAll(accountId, { at: new Date() })],
    ] as const) {
      it(`lists a use recorded before ${name} before its revoked event, with no flush between`, async () => {
        const h = harness();
        const accountId = freshAccount(`causal_${name}`);
        const key = sampleKeyRecord({ accountId });
        await h.store.create(key);
        h.store.recordUse(key.id, new Date());
        await revoke(h.store, accountId, key.id);
        assert.deepStrictEqual(
          (await allEvents(h.store, accountId)).map((e) => e.type),
          ['revoked', 'first_used', 'minted'],
        );
      });
    }

    it('records a use whose request-info thunk throws, without its details', async () => {
      const h = harness();
      const key = sampleKeyRecord({ accountId: freshAccount('thunk') });
      await h.store.create(key);
      assert.doesNotThrow(() =>
        h.store.recordUse(key.id, new Date('2026-05-02T00:00:00Z'), () => {
          throw new Error('no request');
        }),
      );
      await h.flushUses?.();
      const [event] = await allEvents(h.store, key.accountId);
      assert.deepStrictEqual(event && { ...summary(event), ip: event.ip, userAgent: event.userAgent }, {
        type: 'first_used',
        keyId: key.id,
        source: 'api',
        actor: key.id,
        ip: null,
        userAgent: null,
      });
    });

    it('lists newest first and pages with the cursor, each event exactly once', async () => {
      const h = harness();
      const accountId = freshAccount('paging');
      const keys = Array.from({ length: 5 }, () => sampleKeyRecord({ accountId }));
      for (const k of keys) await h.store.create(k, { source: 'api', actor: 'user_p', ip: null, userAgent: null, url: null });
      await h.store.revoke(accountId, keys[1]!.id, {
        at: new Date(),
        event: { source: 'api', actor: 'user_p', ip: null, userAgent: null, url: null },
      });
      await h.store.revoke(accountId, keys[3]!.id, {
        at: new Date(),
        event: { source: 'api', actor: 'user_p', ip: null, userAgent: null, url: null },
      });
      const expected = [
        { type: 'revoked', keyId: keys[3]!.id },
        { type: 'revoked', keyId: keys[1]!.id },
        ...[...keys].reverse().map((k) => ({ type: 'minted', keyId: k.id })),
      ];
      const whole = await h.store.listEvents(accountId, { limit: 100 });
      assert.equal(whole.next, null);
      assert.deepStrictEqual(
        whole.events.map(({ type, keyId }) => ({ type, keyId })),
        expected,
      );

      const pages: KeyEventPage[] = [await h.store.listEvents(accountId, { limit: 3 })];
      while (pages.at(-1)!.next !== null) {
        const next = pages.at(-1)!.next!;
        assert.equal(typeof next, 'string');
        pages.push(await h.store.listEvents(accountId, { limit: 3, cursor: next }));
      }
      assert.deepStrictEqual(
        pages.map((p) => p.events.length),
        [3, 3, 1],
      );
      assert.deepStrictEqual(
        pages.flatMap((p) => p.events.map(({ type, keyId }) => ({ type, keyId }))),
        expected,
      );

      // A full last page: no cursor to an empty page.
      const exact = await h.store.listEvents(accountId, { limit: 7 });
      assert.deepStrictEqual([exact.events.length, exact.next], [7, null]);
    });

    it('shows an account only its own events, whatever cursor it sends', async () => {
      const h = harness();
      const alice = freshAccount('alice');
      const mallory = freshAccount('mallory');
      const aliceKey = sampleKeyRecord({ accountId: alice });
      await h.store.create(aliceKey);
      await h.store.create(sampleKeyRecord({ accountId: alice }));
      await h.store.revoke(alice, aliceKey.id, { at: new Date() });
      const firstPage = await h.store.listEvents(alice, { limit: 1 });
      assert.notEqual(firstPage.next, null);
      assert.deepStrictEqual(await h.store.listEvents(mallory, { limit: 100 }), { events: [], next: null });
      assert.deepStrictEqual(await h.store.listEvents(mallory, { limit: 100, cursor: firstPage.next! }), { events: [], next: null });
    });

    it('rejects a malformed cursor with a 400', async () => {
      const h = harness();
      for (const cursor of ['not a cursor', '-1', '1.5', '0x10', '']) {
        await assert.rejects(h.store.listEvents(freshAccount('cursor'), { limit: 10, cursor }), (error: { status?: number }) => {
          assert.equal(error.status, 400, `cursor ${JSON.stringify(cursor)}`);
          return true;
        });
      }
    });

    it('never holds a secret in any event', async () => {
      const h = harness();
      const accountId = freshAccount('secrets');
      const key = sampleKeyRecord({ accountId });
      const other = sampleKeyRecord({ accountId });
      await h.store.create(key);
      await h.store.create(other);
      h.store.recordUse(key.id, new Date(), () => ({ ip: '203.0.113.9', userAgent: 'ua' }));
      await h.flushUses?.();
      await h.store.revoke(accountId, key.id, { at: new Date() });
      await h.store.revokeMany([other.id], { at: new Date(), event: SCANNING });
      const text = JSON.stringify(await allEvents(h.store, accountId));
      assert.equal(JSON.parse(text).length, 5);
      for (const secret of [key.secret, other.secret]) {
        assert.ok(!text.includes(secret));
        assert.ok(!text.includes(secret.slice(12)));
      }
    });

    itPersistent('keeps events across a reopen', async (h) => {
      const key = sampleKeyRecord({ accountId: freshAccount('persist') });
      await h.store.create(key);
      await h.store.revoke(key.accountId, key.id, { at: new Date() });
      const reopened = await h.reopen();
      assert.deepStrictEqual(
        (await allEvents(reopened, key.accountId)).map((e) => e.type),
        ['revoked', 'minted'],
      );
    });

    it('links a roll’s minted and rolled events, and writes one revoked event per key of revokeAll', async () => {
      const { store } = harness();
      const accountId = freshAccount('roll');
      const old = sampleKeyRecord({ accountId });
      await store.create(old);
      const options = rollOf(store, old);
      assert.equal((await store.roll(options)).status, 'rolled');
      const { events } = await store.listEvents(accountId, { limit: 10 });
      const minted = events.find((e) => e.type === 'minted' && e.keyId === options.key.id);
      const rolled = events.find((e) => e.type === 'rolled' && e.keyId === old.id);
      assert.equal(minted?.relatedKeyId, old.id);
      assert.equal(rolled?.relatedKeyId, options.key.id);
      assert.deepStrictEqual([rolled?.actor, rolled?.ip, rolled?.source, rolled?.name], ['user_roll', '203.0.113.9', 'api', old.name]);
      const plain = events.find((e) => e.type === 'minted' && e.keyId === old.id);
      assert.equal(plain !== undefined && !('relatedKeyId' in plain), true, 'a plain mint names no other key');

      assert.equal(await store.revokeAll(accountId, { at: new Date(), event: ROLL_EVENT }), 2);
      const revoked = (await allEvents(store, accountId))
        .filter((e) => e.type === 'revoked' && e.actor === 'user_roll')
        .map((e) => e.keyId);
      assert.deepStrictEqual(revoked.sort(), [old.id, options.key.id].sort());
    });

    it("writes the key's one 'expired' event, at its expiry, however often recordExpired is called", async () => {
      const h = harness();
      const expiresAt = new Date('2026-02-03T04:05:06.789Z');
      const key = sampleKeyRecord({ accountId: freshAccount('expiry_event'), expiresAt });
      await h.store.create(key);
      h.store.recordExpired(key.id, () => ({ ip: '203.0.113.9', userAgent: 'deploy-bot/2' }));
      h.store.recordExpired(key.id);
      if (capabilities.shared === true && h.peer !== undefined) h.peer.recordExpired(key.id);
      const first = await expiredEvents(h.store, key.accountId, key.id, 200, (n) => n > 0);
      assert.equal(first.length, 1);
      assert.deepStrictEqual(
        { at: first[0]!.at, source: first[0]!.source, actor: first[0]!.actor, prefix: first[0]!.prefix },
        { at: expiresAt, source: 'api', actor: key.id, prefix: key.prefix },
      );
      h.store.recordExpired(key.id);
      // Still one, after the later calls had every chance to land.
      const later = await expiredEvents(h.store, key.accountId, key.id, 10, (n) => n > 1);
      assert.equal(later.length, 1);
    });

    it('writes no expired event for a key without expiry, nor for an unknown id', async () => {
      const { store } = harness();
      const key = sampleKeyRecord({ accountId: freshAccount('expiry_none') });
      await store.create(key);
      store.recordExpired(key.id);
      store.recordExpired(sampleKeyRecord().id);
      const events = await expiredEvents(store, key.accountId, key.id, 10, (n) => n > 0);
      assert.deepStrictEqual(events, []);
    });
  });

  describe('KeyEventLog: revokeMany, with its events', () => {
    it('revokes active keys of any account and answers each distinct id once, in order', async () => {
      const h = harness();
      const alice = freshAccount('many_a');
      const bob = freshAccount('many_b');
      const a = sampleKeyRecord({ accountId: alice });
      const b = sampleKeyRecord({ accountId: bob });
      const gone = sampleKeyRecord({ accountId: alice });
      const unknown = generateApiKey().id;
      for (const k of [a, b, gone]) await h.store.create(k);
      await h.store.revoke(alice, gone.id, { at: new Date() });
      const at = new Date('2026-06-07T08:09:10.011Z');
      const results = await h.store.revokeMany([b.id, unknown, a.id, gone.id, b.id], { at, event: SCANNING });
      assert.deepStrictEqual(results, [
        { id: b.id, status: 'revoked' },
        { id: unknown, status: 'unknown' },
        { id: a.id, status: 'revoked' },
        { id: gone.id, status: 'already_revoked' },
      ]);
      assert.equal(await h.store.findActive(a.id), null);
      assert.equal(await h.store.findActive(b.id), null);
      assert.deepStrictEqual(await h.store.listByAccount(alice), []);
      // One revoked event per key revoked, in its owner's log, with the context given.
      const [bobEvent] = await allEvents(h.store, bob);
      assert.deepStrictEqual(bobEvent, { type: 'revoked', keyId: b.id, prefix: b.prefix, name: b.name, at, ...SCANNING });
      assert.deepStrictEqual((await allEvents(h.store, alice)).map(summary), [
        { type: 'revoked', keyId: a.id, source: 'github_secret_scanning', actor: 'github' },
        { type: 'revoked', keyId: gone.id, source: 'api', actor: null },
        { type: 'minted', keyId: gone.id, source: 'api', actor: gone.provenance?.subject },
        { type: 'minted', keyId: a.id, source: 'api', actor: a.provenance?.subject },
      ]);
    });

    it('is idempotent: a second call finds every key already revoked and writes nothing', async () => {
      const h = harness();
      const accountId = freshAccount('many_again');
      const keys = [sampleKeyRecord({ accountId }), sampleKeyRecord({ accountId })];
      for (const k of keys) await h.store.create(k);
      const ids = keys.map((k) => k.id);
      const context: KeyEventContext = { source: 'revoke_by_value', actor: null, ip: '192.0.2.1', userAgent: null, url: null };
      assert.deepStrictEqual(
        (await h.store.revokeMany(ids, { at: new Date(), event: context })).map((r) => r.status),
        ['revoked', 'revoked'],
      );
      assert.deepStrictEqual(
        (await h.store.revokeMany(ids, { at: new Date(), event: context })).map((r) => r.status),
        ['already_revoked', 'already_revoked'],
      );
      assert.deepStrictEqual(
        (await allEvents(h.store, accountId)).map((e) => e.type),
        ['revoked', 'revoked', 'minted', 'minted'],
      );
    });

    it('answers an empty list with an empty list', async () => {
      const h = harness();
      assert.deepStrictEqual(await h.store.revokeMany([], { at: new Date(), event: SCANNING }), []);
    });

    it('revokes each key exactly once when calls race', async () => {
      const h = harness();
      const accountId = freshAccount('many_race');
      const keys = Array.from({ length: 6 }, () => sampleKeyRecord({ accountId }));
      for (const k of keys) await h.store.create(k);
      const ids = keys.map((k) => k.id);
      const runs = await Promise.all([
        h.store.revokeMany(ids, { at: new Date(), event: SCANNING }),
        (h.peer ?? h.store).revokeMany([...ids].reverse(), { at: new Date(), event: SCANNING }),
        h.store.revoke(accountId, ids[2]!, { at: new Date() }),
      ]);
      const revokedBy = (results: { id: string; status: string }[]): string[] =>
        results.filter((r) => r.status === 'revoked').map((r) => r.id);
      const revoked = [...revokedBy(runs[0]), ...revokedBy(runs[1]), ...(runs[2] ? [ids[2]!] : [])];
      assert.deepStrictEqual([...revoked].sort(), [...ids].sort());
      assert.equal((await allEvents(h.store, accountId)).filter((e) => e.type === 'revoked').length, ids.length);
    });

    itShared('is seen through a peer at once', async (h) => {
      const { peer } = h;
      const key = sampleKeyRecord({ accountId: freshAccount('many_peer') });
      await h.store.create(key);
      assert.notEqual(await h.store.findActive(key.id), null);
      assert.notEqual(await peer.findActive(key.id), null);
      assert.deepStrictEqual(await peer.revokeMany([key.id], { at: new Date(), event: SCANNING }), [{ id: key.id, status: 'revoked' }]);
      assert.equal(await h.store.findActive(key.id), null);
    });
  });
};

/**
 * The conformance suite of the event log, with the hot path and the writes that write its events
 * (`KeyLookup`, `KeyWrites` and `KeyEventLog`). A whole `KeyStore` runs it within
 * `describeKeyStoreConformance`.
 */
export function describeKeyEventLogConformance(
  test: ConformanceTestApi,
  name: string,
  makeHarness: () => Promise<StoreHarness<KeyEventLogUnderTest>>,
  capabilities: KeyStoreCapabilities = {},
): void {
  describeConformance('describeKeyEventLogConformance', `KeyEventLog conformance: ${name}`, test, makeHarness, capabilities, [
    keyEventLogTests,
  ]);
}
