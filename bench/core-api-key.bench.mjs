/**
 * API key, in process: the authenticator on the memory store against hash + Map.get (target: at
 * least 0.6×, issue 40); and the same with keys that expire (a year ahead: every check compares
 * the expiry with the store's clock), against the row without expiry (target: at most 2% slower,
 * a ratio of at least 0.98); and the first row again with a subscriber on
 * `drops-auth:authenticate` (what metrics or tracing add to each check; no target).
 */
import { hash } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createAuthenticator, generateApiKey, MemoryKeyStore } from '@drops/auth';
import { asyncOpsPerSec, interleaved, syncOpsPerSec } from './measure.mjs';

export async function run() {
  const store = new MemoryKeyStore();
  const expiringStore = new MemoryKeyStore();
  const map = new Map();
  const secrets = [];
  const expiringSecrets = [];
  const inAYear = new Date(Date.now() + 365 * 86_400_000);
  for (let i = 0; i < 1024; i++) {
    const k = generateApiKey();
    secrets.push(k.secret);
    map.set(k.id, { id: k.id, accountId: `acct_${i}` });
    await store.create({
      id: k.id,
      accountId: `acct_${i}`,
      prefix: k.prefix,
      name: null,
      createdAt: new Date(),
      provenance: null,
      expiresAt: null,
    });
    const e = generateApiKey();
    expiringSecrets.push(e.secret);
    await expiringStore.create({
      id: e.id,
      accountId: `acct_${i}`,
      prefix: e.prefix,
      name: null,
      createdAt: new Date(),
      provenance: null,
      expiresAt: inAYear,
    });
  }
  const headers = secrets.map((s) => `Bearer ${s}`);
  const expiringHeaders = expiringSecrets.map((s) => `Bearer ${s}`);
  const authenticator = createAuthenticator({ keyStore: store });
  const expiringAuthenticator = createAuthenticator({ keyStore: expiringStore });

  let sink = 0;
  let published = 0;
  const countAuthenticated = (message) => {
    if (message.outcome === 'authenticated') published++;
  };
  const slice = { ms: 300, warmupMs: 100 };
  const { floor, ours, expiring, observed } = await interleaved(
    {
      floor: async () =>
        syncOpsPerSec((i) => {
          if (map.get(hash('sha256', secrets[i & 1023], 'hex')) !== undefined) sink++;
        }, slice),
      // The harness awaits the promise authenticate() returns, as a caller does; it rejects unless
      // the key authenticated (checked once more below).
      ours: () => asyncOpsPerSec((i) => authenticator.authenticate(headers[i & 1023]), slice),
      expiring: () => asyncOpsPerSec((i) => expiringAuthenticator.authenticate(expiringHeaders[i & 1023]), slice),
      observed: async () => {
        subscribe('drops-auth:authenticate', countAuthenticated);
        try {
          return await asyncOpsPerSec((i) => authenticator.authenticate(headers[i & 1023]), slice);
        } finally {
          unsubscribe('drops-auth:authenticate', countAuthenticated);
        }
      },
    },
    9,
  );
  if (sink === 0) throw new Error('nothing measured');
  if (published === 0) throw new Error('the subscriber heard no authentication');
  for (const [i, header] of headers.entries()) {
    if ((await authenticator.authenticate(header)).accountId !== `acct_${i}`) throw new Error('wrong account');
    if ((await expiringAuthenticator.authenticate(expiringHeaders[i])).expiresAt?.getTime() !== inAYear.getTime())
      throw new Error('no expiry');
  }
  return [
    { group: 'API key, in process', name: 'floor: crypto.hash sha256 + Map.get', opsPerSec: floor },
    { group: 'API key, in process', name: 'authenticate (MemoryKeyStore)', opsPerSec: ours, ratio: ours / floor, target: 0.6 },
    {
      group: 'API key, in process',
      name: 'authenticate, keys that expire (MemoryKeyStore), against the row above',
      opsPerSec: expiring,
      ratio: expiring / ours,
      target: 0.98,
    },
    {
      group: 'API key, in process',
      name: 'authenticate with a subscriber on drops-auth:authenticate, against the first row',
      opsPerSec: observed,
      ratio: observed / ours,
    },
  ];
}
