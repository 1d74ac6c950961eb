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
  const slice = { ms: 300, warmupMs: 100 };
  const { floor, ours } = await interleaved({
    floor: async () =>
      syncOpsPerSec((i) => {
        if (map.get(hash('sha256', secrets[i & 1023], 'hex')) !== undefined) sink++;
      }, slice),
    // The harness awaits the promise authenticate() returns, as a caller does; it rejects unless
    // the key authenticated (checked once more below).
    ours: () => asyncOpsPerSec((i) => authenticator.authenticate(headers[i & 1023]), slice),
  }, 9);
  if (sink === 0) throw new Error('nothing measured');
  for (const [i, header] of headers.entries()) {
    if ((await authenticator.authenticate(header)).accountId !== `acct_${i}`) throw new Error('wrong account');
  }
  return [
    { group: 'API key, in process', name: 'floor: crypto.hash sha256 + Map.get', opsPerSec: floor },
    { group: 'API key, in process', name: 'authenticate (MemoryKeyStore)', opsPerSec: ours, ratio: ours / floor, target: 0.5 },
  ];
}
