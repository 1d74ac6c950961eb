/** API key, in process: the authenticator on the memory store against hash + Map.get. */
import { hash } from 'node:crypto';
import { createAuthenticator, generateApiKey, MemoryKeyStore } from '@drops/auth';
import { asyncOpsPerSec, interleaved, syncOpsPerSec } from './measure.mjs';

export async function run() {
  const store = new MemoryKeyStore();
  const map = new Map();
  const secrets = [];
  for (let i = 0; i < 1024; i++) {
    const k = generateApiKey();
    secrets.push(k.secret);
    map.set(k.id, { id: k.id, accountId: `acct_${i}` });
    await store.create({ id: k.id, accountId: `acct_${i}`, prefix: k.prefix, name: null, createdAt: new Date(), provenance: null });
  }
  const headers = secrets.map((s) => `Bearer ${s}`);
  const authenticator = createAuthenticator({ keyStore: store });

  let sink = 0;
  const slice = { ms: 400, warmupMs: 100 };
  const { floor, ours } = await interleaved({
    floor: async () =>
      syncOpsPerSec((i) => {
        if (map.get(hash('sha256', secrets[i & 1023], 'hex')) !== undefined) sink++;
      }, slice),
    ours: () =>
      asyncOpsPerSec(async (i) => {
        const p = await authenticator.authenticate(headers[i & 1023]);
        if (p.accountId) sink++;
      }, slice),
  });
  if (sink === 0) throw new Error('nothing measured');
  return [
    { group: 'API key, in process', name: 'floor: crypto.hash sha256 + Map.get', opsPerSec: floor },
    { group: 'API key, in process', name: 'authenticate (MemoryKeyStore)', opsPerSec: ours, ratio: ours / floor, target: 0.5 },
  ];
}
