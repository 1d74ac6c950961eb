/**
 * A memory store holding `count` keys of accounts `acct_0` … (key i of account `acct_i`), for the
 * in-process API key benches: the store, and each key's secret and id in the same order.
 */
import { generateApiKey, MemoryKeyStore } from '@drops/auth';

export async function memoryStoreWithKeys(count, { expiresAt = null } = {}) {
  const store = new MemoryKeyStore();
  const secrets = [];
  const ids = [];
  for (let i = 0; i < count; i++) {
    const key = generateApiKey();
    secrets.push(key.secret);
    ids.push(key.id);
    await store.create({
      id: key.id,
      accountId: `acct_${i}`,
      prefix: key.prefix,
      name: null,
      createdAt: new Date(),
      provenance: null,
      expiresAt,
    });
  }
  return { store, secrets, ids };
}
