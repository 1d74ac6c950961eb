/**
 * The key store's share of an API key check, in process: `findActive(id)`, `now()` and
 * `recordUse(...)` as the authenticator calls them (create-authenticator.ts, apiKeyPrincipal), or
 * `sessionCutoff(accountId)` as an ID token check does; for one known key, or a new random id each
 * call (the random-key flood: no key, the membership answers). Meant for callgrind, collection
 * toggled around the loop alone (PGlite's start under valgrind takes minutes):
 *
 *   node bench/store-hot-path-cg.mjs memory|pglite|pg known|unknown|cutoff [LOOPS]
 *
 * Run alone, it prints `ready`, waits for a line on stdin, runs LOOPS calls, prints `done`, and
 * waits for another line before it closes the store. `pg` makes a scratch database
 * (bench/scratch-database.mjs). DROPS_ROOT=/path/to/checkout takes the packages built there.
 */
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { createScratchDatabase } from './scratch-database.mjs';

const root = process.env.DROPS_ROOT;
const { generateApiKey, MemoryKeyStore } = await import(root ? `${root}/packages/auth/dist/index.js` : '@drops/auth');
const { openPGliteKeyStore, openPostgresKeyStore } = await import(
  root ? `${root}/packages/postgres/dist/index.js` : '@drops/auth-postgres'
);
const [storeKind = 'memory', kind = 'known', loops = '100000'] = process.argv.slice(2);
const LOOPS = Number(loops);
const WARMUP = 30_000;

const scratch = storeKind === 'pg' ? await createScratchDatabase('hot_path') : null;
const store =
  storeKind === 'memory'
    ? new MemoryKeyStore()
    : storeKind === 'pglite'
      ? await openPGliteKeyStore({ dataDir: ':memory:' })
      : // A lease longer than the loop under valgrind: the loop never yields to renew it.
        await openPostgresKeyStore({ connectionString: scratch.url, leaseMs: 600_000 });
const key = generateApiKey();
const mint = (k, accountId) =>
  store.create({ id: k.id, accountId, prefix: k.prefix, name: null, createdAt: new Date(), provenance: null, expiresAt: null });
await mint(key, 'acct_bench');
if (store.ready) await store.ready();
// Some more keys, so the membership is not trivially small.
for (let i = 0; i < 50; i++) await mint(generateApiKey(), `acct_${i}`);
// Each counted call gets a new string, as each request does (keyIdOf): its hash is not cached yet.
const fresh = (id) => Buffer.from(id, 'latin1').toString('latin1');
const ids = Array.from({ length: WARMUP + LOOPS }, () => (kind === 'unknown' ? randomBytes(32).toString('hex') : fresh(key.id)));
await store.findActive(key.id); // a known key is cached from here on
const info = () => ({ ip: '127.0.0.1', userAgent: 'bench' });

let lastUse;
function useTime(now) {
  if (lastUse === undefined || lastUse.getTime() !== now) lastUse = new Date(now);
  return lastUse;
}

const cutoff = kind === 'cutoff';
let answered = 0;
function once(i) {
  if (cutoff) {
    const c = store.sessionCutoff('acct_bench');
    if (c === null) answered++;
    return c;
  }
  const id = ids[i];
  const found = store.findActive(id);
  if (found !== null && typeof found.then === 'function') throw new Error('findActive went to the database');
  if (found === null) return null;
  const now = store.now();
  store.recordUse(id, useTime(now), info);
  answered++;
  return found;
}

for (let i = 0; i < WARMUP; i++) once(i);
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
// A clean heap: no collection started before runs in the counted loop.
globalThis.gc?.();
console.log('ready');
await lines.next();
for (let i = 0; i < LOOPS; i++) once(WARMUP + i);
console.log(`done ${answered}`);
await lines.next();
await store.close();
await scratch?.drop();
