import assert from 'node:assert/strict';
import type { KeyEventContext } from '../key-store/key-event.js';
import type { KeyStore } from '../key-store/key-store.js';
import { hasSessionCutoffs, type SessionCutoffs } from '../key-store/session-cutoffs.js';
import type { ConformancePart } from './conformance-suite.js';
import { sampleKeyRecord } from './sample-key-record.js';

const SIGNED_OUT_BY: KeyEventContext = Object.freeze({
  source: 'api',
  actor: 'user_signing_out',
  ip: '203.0.113.9',
  userAgent: 'conformance',
  url: null,
});

function cutoffsOf(store: KeyStore): SessionCutoffs {
  assert.ok(hasSessionCutoffs(store), 'a store that claims sessionCutoffs implements signOutEverywhere and sessionCutoff');
  return store;
}

/**
 * Sign-out everywhere, the `SessionCutoffs` part of a whole store's suite, for a store that claims `sessionCutoffs`:
 * the cut-off is kept forward-only, answered by `sessionCutoff` (on a peer too, once
 * `signOutEverywhere` resolved), written as one `'sessions_revoked'` event, apart per account,
 * and concurrent sign-outs leave the latest cut-off (as some serial order would).
 * @internal
 */
export const sessionCutoffsTests: ConformancePart<KeyStore> = ({ describe, it, harness, capabilities, itShared }) => {
  if (capabilities.sessionCutoffs !== true) return;
  describe('sign-out cut-offs', () => {
    it('answers null before any sign-out, then the cut-off, forward only', async () => {
      const store = cutoffsOf(harness().store);
      assert.equal(await store.sessionCutoff('acct_cut'), null);
      const at = new Date('2026-03-04T05:06:07.123Z');
      assert.deepStrictEqual(await store.signOutEverywhere('acct_cut', { at, event: SIGNED_OUT_BY }), at);
      assert.equal(await store.sessionCutoff('acct_cut'), at.getTime());
      const earlier = new Date(at.getTime() - 60_000);
      assert.deepStrictEqual(await store.signOutEverywhere('acct_cut', { at: earlier, event: SIGNED_OUT_BY }), at);
      assert.equal(await store.sessionCutoff('acct_cut'), at.getTime());
      const later = new Date(at.getTime() + 1_000);
      assert.deepStrictEqual(await store.signOutEverywhere('acct_cut', { at: later, event: SIGNED_OUT_BY }), later);
      assert.equal(await store.sessionCutoff('acct_cut'), later.getTime());
      assert.equal(await store.sessionCutoff('acct_other'), null);
    });

    it("writes one 'sessions_revoked' event with who and where, and leaves the account's keys alone", async () => {
      const h = harness();
      const store = cutoffsOf(h.store);
      const key = sampleKeyRecord({ accountId: 'acct_cut_event' });
      await h.store.create(key);
      const at = new Date(h.store.now());
      await store.signOutEverywhere('acct_cut_event', { at, event: SIGNED_OUT_BY });
      const { events } = await h.store.listEvents('acct_cut_event', { limit: 10 });
      const signOuts = events.filter((e) => e.type === 'sessions_revoked');
      assert.equal(signOuts.length, 1);
      assert.deepStrictEqual({ ...signOuts[0] }, { type: 'sessions_revoked', keyId: '', prefix: '', name: null, at, ...SIGNED_OUT_BY });
      assert.deepStrictEqual(await h.store.findActive(key.id), { id: key.id, accountId: 'acct_cut_event', expiresAt: null });
    });

    it('leaves the latest cut-off after concurrent sign-outs of one account', async () => {
      const store = cutoffsOf(harness().store);
      const base = Date.parse('2026-05-01T00:00:00Z');
      const ats = Array.from({ length: 8 }, (_, i) => new Date(base + ((i * 37) % 8) * 1_000));
      const answers = await Promise.all(ats.map((at) => store.signOutEverywhere('acct_cut_race', { at, event: SIGNED_OUT_BY })));
      const latest = Math.max(...ats.map((at) => at.getTime()));
      assert.equal(await store.sessionCutoff('acct_cut_race'), latest);
      // Each answer is the cut-off in force after that call: at least its own, at most the latest.
      for (const [i, answer] of answers.entries()) assert.ok(answer.getTime() >= ats[i]!.getTime() && answer.getTime() <= latest);
    });

    itShared('a peer answers the cut-off once signOutEverywhere has resolved', async ({ store, peer }) => {
      assert.equal(await cutoffsOf(peer).sessionCutoff('acct_cut_shared'), null);
      const at = new Date(store.now());
      await cutoffsOf(store).signOutEverywhere('acct_cut_shared', { at, event: SIGNED_OUT_BY });
      assert.equal(await cutoffsOf(peer).sessionCutoff('acct_cut_shared'), at.getTime());
    });
  });
};
