import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createKeyManager, DIAGNOSTICS_CHANNELS, type KeyManager, type Principal, type RevocationMessage } from '@drops/auth';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cachedOn } from './test-support/cached-on.js';
import { storesPerTest, type TestStoreOptions } from './test-support/stores-per-test.js';
import type { RevocationWait } from './lease/wait-for-acknowledgements.js';

// drops-auth:revocation on a real PostgreSQL: the key manager over one store instance, a second
// instance holding the keys under a lease, and the acknowledgements the revoke waited for.
const stores = storesPerTest('revocation_diag', { connectionTimeoutMs: 500, queryTimeoutMs: 500 });
const { store } = stores;
const messages: RevocationMessage[] = [];
const listener = (message: unknown): void => void messages.push(message as RevocationMessage);

beforeAll(() => subscribe(DIAGNOSTICS_CHANNELS.revocation, listener));

afterEach(() => {
  messages.length = 0;
});

afterAll(() => unsubscribe(DIAGNOSTICS_CHANNELS.revocation, listener));

const alice: Principal = { accountId: 'acct_alice', credential: 'id_token', claims: { sub: 'alice', iss: 'i', aud: 'a', iat: 1, exp: 2 } };

/** A key manager on a store that records its waits, a second instance, and keys both hold under a lease. */
async function twoInstances(count: number, peerOptions: TestStoreOptions = {}) {
  const waits: RevocationWait[] = [];
  const leaseMs = peerOptions.leaseMs;
  const revoker = await store({ onRevocationWait: (w) => waits.push(w), ...(leaseMs === undefined ? {} : { leaseMs }) });
  const peer = await store(peerOptions);
  const keys: KeyManager = createKeyManager({ keyStore: revoker, mintRateLimit: false });
  const minted = [];
  for (let i = 0; i < count; i++) minted.push(await keys.mint(alice));
  for (const { id } of minted) await Promise.all([cachedOn(revoker, id), cachedOn(peer, id)]);
  return { keys, peer, minted, waits };
}

describe('drops-auth:revocation on PostgreSQL with a lease-coherent cache', () => {
  it('a revoke by id names the instances that acknowledged it: both the revoker and the peer', async () => {
    const { keys, peer, minted, waits } = await twoInstances(1);
    const [key] = minted as [(typeof minted)[number]];
    await keys.revoke(alice, key.id);
    expect(await peer.findActive(key.id)).toBeNull();
    expect(waits).toHaveLength(1);
    const [wait] = waits as [RevocationWait];
    expect(wait.acknowledged).toBeGreaterThanOrEqual(2);
    expect(messages).toEqual([
      { keyId: key.id, outcome: 'revoked', durationMs: expect.any(Number), instancesAcknowledged: wait.acknowledged, leasesExpired: 0 },
    ]);
  });

  it("a revoke by value names every key it revoked, each with the batch's acknowledgements, and nothing for the rest", async () => {
    const { keys, peer, minted, waits } = await twoInstances(2);
    const [a, b] = minted as [(typeof minted)[number], (typeof minted)[number]];
    const results = await keys.revokeBySecret([a.apiKey, `hp_${'Q'.repeat(43)}`, b.apiKey], { source: 'revoke_by_value' });
    expect(results.map((r) => r.status)).toEqual(['revoked', 'unknown', 'revoked']);
    expect(await peer.findActive(a.id)).toBeNull();
    expect(waits).toHaveLength(1);
    const [wait] = waits as [RevocationWait];
    expect(wait.acknowledged).toBeGreaterThanOrEqual(2);
    const receipt = { instancesAcknowledged: wait.acknowledged, leasesExpired: 0 };
    expect(messages).toEqual([
      { keyId: a.id, outcome: 'revoked', durationMs: expect.any(Number), ...receipt },
      { keyId: b.id, outcome: 'revoked', durationMs: expect.any(Number), ...receipt },
    ]);
    expect(JSON.stringify(messages)).not.toContain('hp_');
  });

  it('secret scanning against a partitioned peer: the message counts the lease that expired instead', async () => {
    const { proxy, url } = await stores.proxied();
    const { keys, minted, waits } = await twoInstances(1, { url, leaseMs: 1_500 });
    const [key] = minted as [(typeof minted)[number]];
    proxy.stall();
    try {
      await keys.revokeBySecret([key.apiKey], { source: 'github_secret_scanning', url: 'https://github.com/o/r/blob/x/.env' });
    } finally {
      proxy.restore();
    }
    expect(waits).toEqual([expect.objectContaining({ expired: 1 })]);
    const [wait] = waits as [RevocationWait];
    expect(messages).toEqual([
      { keyId: key.id, outcome: 'revoked', durationMs: expect.any(Number), instancesAcknowledged: wait.acknowledged, leasesExpired: 1 },
    ]);
    // The revoke waited for the peer's lease to run out, and the message says so.
    expect(messages[0]!.durationMs).toBeGreaterThan(500);
  });
});
