/**
 * The three bounded caches full and churning: the verified-token cache of the ID token verifier,
 * and the active-key caches of @drops/auth-postgres (PGlite's, and the lease-coherent one on
 * PostgreSQL). Each holds its default 10 000 entries and is fed 1M distinct ids in turn, so every
 * insert evicts the oldest entry: the cost that must stay O(1) however long the churn lasts. The
 * floor is the least a bounded map can do, measured in the same run: a bare `Map` of the same size
 * that sets each new id and deletes the id set `CAPACITY` inserts before (it keeps no order: it
 * knows which id is oldest because the ids come in turn).
 *
 *   pnpm build && node bench/run.mjs bounded-caches
 */
import { randomBytes } from 'node:crypto';
import { tsImport } from 'tsx/esm/api';
import { interleaved, syncOpsPerSec } from './measure.mjs';

const GROUP = 'bounded caches, full, 1M distinct ids';
const CAPACITY = 10_000; // the default of `maxCachedTokens` and `maxCachedKeys`
const IDS = 1_000_000;

const { VerifiedTokenCache } = await tsImport('../packages/auth/src/id-token/verified-token-cache.ts', import.meta.url);
const { ActiveKeyCache } = await tsImport('../packages/postgres/src/active-key-cache.ts', import.meta.url);
const { CoherentKeyCache } = await tsImport('../packages/postgres/src/lease/coherent-key-cache.ts', import.meta.url);

/** `insert(id, i)` over the ids in turn, without end: each call of the result is one insert. */
function cycling(ids, insert) {
  let i = 0;
  return () => {
    insert(ids[i], i);
    i = i + 1 === ids.length ? 0 : i + 1;
  };
}

export async function run() {
  const bytes = randomBytes(32 * IDS);
  const ids = Array.from({ length: IDS }, (_, i) => bytes.toString('hex', i * 32, i * 32 + 32));
  const keys = ids.map((id) => Object.freeze({ id, accountId: 'acct' }));
  const verified = Object.freeze({ kid: 'k1', claims: {}, key: {} });

  const floorMap = new Map();
  const tokens = new VerifiedTokenCache(CAPACITY);
  const active = new ActiveKeyCache(CAPACITY);
  const coherent = new CoherentKeyCache(CAPACITY, () => 0);
  coherent.granted(Number.POSITIVE_INFINITY);

  const inserts = {
    floor: cycling(ids, (id, i) => {
      floorMap.set(id, verified);
      floorMap.delete(ids[(i + IDS - CAPACITY) % IDS]);
    }),
    tokens: cycling(ids, (id) => tokens.set(id, verified)),
    active: cycling(keys, (key) => active.remember(key, active.generation)),
    coherent: cycling(keys, (key) => coherent.remember(key, coherent.generation)),
  };
  // Past capacity before any timing: every measured insert evicts.
  for (const insert of Object.values(inserts)) for (let n = 0; n < 3 * CAPACITY; n++) insert();

  const slice = { ms: 500, warmupMs: 200 };
  const best = await interleaved(
    Object.fromEntries(Object.entries(inserts).map(([name, insert]) => [name, async () => syncOpsPerSec(insert, slice)])),
    5,
  );
  // Bounded, and full: exactly `CAPACITY` of the ids answer from each cache.
  for (const [name, cache] of [
    ['floor', floorMap],
    ['verified-token', tokens],
    ['active-key', active],
    ['coherent-key', coherent],
  ]) {
    let held = 0;
    for (const id of ids) if (cache.get(id) !== undefined) held++;
    if (held !== CAPACITY) throw new Error(`the ${name} cache holds ${held} ids, not ${CAPACITY}`);
  }

  const row = (name, rate) => ({ group: GROUP, name, opsPerSec: rate, ratio: rate / best.floor, target: 0.5 });
  return [
    { group: GROUP, name: `floor: Map.set + Map.delete, ${CAPACITY} held`, opsPerSec: best.floor },
    row('VerifiedTokenCache.set (id-token)', best.tokens),
    row('ActiveKeyCache.remember (PGlite)', best.active),
    {
      ...row('CoherentKeyCache.remember (PostgreSQL, under a lease)', best.coherent),
      note: `each cache holds ${CAPACITY} entries (the default) and every measured insert evicts one.`,
    },
  ];
}
