/**
 * One process of bench/core-api-key.bench.mjs: `node bench/core-api-key-process.mjs VARIANT`, with
 * VARIANT one of `plain` (1024 keys without expiry), `expiring` (1024 keys that expire a year
 * ahead: every check compares the expiry with the store's clock) or `observed` (keys without
 * expiry, and a subscriber on `drops-auth:authenticate`, as metrics or tracing add one). One
 * authenticator on one memory store, as an app runs it, measured against the floor (a SHA-256 of
 * the secret and a `Map.get`) in the same interleaved rounds; each keeps its best round. Prints
 * `{ floor, check }` (operations per second) as one JSON line.
 */
import { hash } from 'node:crypto';
import { subscribe } from 'node:diagnostics_channel';
import { createAuthenticator } from '@drops/auth';
import { asyncOpsPerSec, interleaved, syncOpsPerSec } from './measure.mjs';
import { memoryStoreWithKeys } from './memory-store-keys.mjs';

const VARIANTS = ['plain', 'expiring', 'observed'];
const KEYS = 1024;

const variant = process.argv[2];
if (!VARIANTS.includes(variant)) throw new Error(`usage: node bench/core-api-key-process.mjs ${VARIANTS.join('|')}`);

const expiresAt = variant === 'expiring' ? new Date(Date.now() + 365 * 86_400_000) : null;
const { store, secrets, ids } = await memoryStoreWithKeys(KEYS, { expiresAt });
const floorMap = new Map(ids.map((id, i) => [id, { id, accountId: `acct_${i}` }]));
const headers = secrets.map((secret) => `Bearer ${secret}`);
const authenticator = createAuthenticator({ keyStore: store });
let published = 0;
if (variant === 'observed') {
  subscribe('drops-auth:authenticate', (message) => {
    if (message.outcome === 'authenticated') published++;
  });
}

let found = 0;
const slice = { ms: 300, warmupMs: 100 };
const { floor, check } = await interleaved(
  {
    floor: async () =>
      syncOpsPerSec((i) => {
        if (floorMap.get(hash('sha256', secrets[i & (KEYS - 1)], 'hex')) !== undefined) found++;
      }, slice),
    // Awaited, as a caller does: the promise rejects unless the key authenticated (checked below).
    check: () => asyncOpsPerSec((i) => authenticator.authenticate(headers[i & (KEYS - 1)]), slice),
  },
  9,
);
if (found === 0) throw new Error('the floor found no key');
if (variant === 'observed' && published === 0) throw new Error('the subscriber heard no authentication');
for (const [i, header] of headers.entries()) {
  const principal = await authenticator.authenticate(header);
  if (principal.accountId !== `acct_${i}`) throw new Error('wrong account');
  if ((principal.expiresAt?.getTime() ?? null) !== (expiresAt?.getTime() ?? null)) throw new Error('wrong expiry');
}
process.stdout.write(`${JSON.stringify({ floor, check })}\n`);
