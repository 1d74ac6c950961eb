import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeKeyStoreConformance } from '../testing/key-store-conformance.js';
import { MemoryKeyStore } from './memory-key-store.js';

describeKeyStoreConformance({ describe, it, beforeEach, afterEach }, 'MemoryKeyStore', async () => ({ store: new MemoryKeyStore({ minUseIntervalMs: 0 }) }));

describe('MemoryKeyStore', () => {
  it('hands out copies of lastUsedAt: changing one changes nothing stored', async () => {
    const store = new MemoryKeyStore({ minUseIntervalMs: 0 });
    const at = new Date(1_700_000_000_000);
    for (const id of ['a'.repeat(64), 'b'.repeat(64)]) {
      await store.create({ id, accountId: 'acct_1', prefix: 'hp_xxxxxxx', name: null, createdAt: new Date(0), provenance: null });
      store.recordUse(id, at); // one Date for both, as the authenticator does within a millisecond
    }
    const [first] = await store.listByAccount('acct_1');
    first!.lastUsedAt!.setTime(0);
    for (const key of await store.listByAccount('acct_1')) expect(key.lastUsedAt).toEqual(new Date(1_700_000_000_000));
  });
});
