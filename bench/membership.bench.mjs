/**
 * The membership of active keys a PostgresKeyStore holds under its lease (docs/revocation.md,
 * "Membership"): its memory per active key and the time to build it on start, with
 * MEMBERSHIP_KEYS active keys in the table (default 1,000,000; 10,000,000 needs ~3 GB of disk
 * and a few minutes to load), and the rate at which it answers random (unknown) ids.
 *
 * Bytes: growth of the process's ArrayBuffer memory once the store holds its lease (the sorted
 * Uint32Array of id fingerprints; run with --expose-gc so the build's scratch buffers are collected
 * first). Build time: from `new PostgresKeyStore` to its first answer from memory (LISTEN, the
 * paged read of every active id in one snapshot, sorting, taking the lease).
 *
 *   pnpm build && node --expose-gc bench/membership.bench.mjs
 *   MEMBERSHIP_KEYS=10000000 node --expose-gc bench/membership.bench.mjs
 */
import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { migrateKeyStore, openPostgres, PostgresKeyStore } from '../packages/postgres/dist/index.js';
import { createScratchDatabase } from './scratch-database.mjs';

const KEYS = Number(process.env.MEMBERSHIP_KEYS ?? 1_000_000);
const GROUP = `membership (${KEYS.toLocaleString('en')} active keys)`;
const LOOKUPS = 1_000_000;

const gc = globalThis.gc ?? (() => {});
const randomId = () => createHash('sha256').update(randomBytes(32)).digest('hex');

/** Loads `KEYS` active keys server-side in batches (triggers off: a bulk load announces nothing). */
async function load(db) {
  const batch = 1_000_000;
  for (let from = 1; from <= KEYS; from += batch) {
    const to = Math.min(KEYS, from + batch - 1);
    await db.transaction(async (tx) => {
      await tx.query("set local session_replication_role = 'replica'");
      await tx.query(
        `insert into drops_auth_keys (id, account_id, prefix, created_at)
         select encode(sha256(('bench-' || i)::bytea), 'hex'), 'acct_' || (i % 100000), 'hp_bench00', now()
         from generate_series($1::int, $2::int) i`,
        [from, to],
      );
    });
  }
  await db.query('vacuum analyze drops_auth_keys');
}

/** Result rows `{ group, name, opsPerSec, display?, note? }`. */
export async function run() {
  const scratch = await createScratchDatabase('membership');
  try {
    const db = await openPostgres({ connectionString: scratch.url });
    await migrateKeyStore(db);
    const loadStart = performance.now();
    await load(db);
    const loadSeconds = (performance.now() - loadStart) / 1000;
    await db.close();

    gc();
    const before = process.memoryUsage().arrayBuffers;
    const start = performance.now();
    const store = new PostgresKeyStore({
      db: await openPostgres({ connectionString: scratch.url }),
      closeDatabase: true,
      queryTimeoutMs: 600_000,
    });
    // The first lookup waits for the lease, which waits for the membership.
    if ((await store.findActive(randomId())) !== null) throw new Error('a random id was found');
    const buildMs = performance.now() - start;
    // The build's scratch arrays are garbage now; their memory is released over a few collections.
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const bytes = process.memoryUsage().arrayBuffers - before;

    const ids = Array.from({ length: 10_000 }, randomId);
    let refused = 0;
    const lookupStart = performance.now();
    for (let i = 0; i < LOOKUPS; i++) {
      const answer = store.findActive(ids[i % ids.length]);
      if (answer === null) refused++;
      else if (answer instanceof Promise) answer.catch(() => {});
    }
    const lookupsPerSec = (LOOKUPS * 1000) / (performance.now() - lookupStart);
    await store.close();

    const perKey = bytes / KEYS;
    return [
      {
        group: GROUP,
        name: 'membership memory per active key',
        opsPerSec: perKey,
        display: `${perKey.toFixed(2)} B/key`,
        note: `${(bytes / 2 ** 20).toFixed(1)} MiB of ArrayBuffer for ${KEYS.toLocaleString('en')} keys (sorted 96-bit fingerprints: 12 B/key by construction); false positive rate n/2^96 = ${(KEYS / 2 ** 96).toExponential(2)}.`,
      },
      {
        group: GROUP,
        name: 'membership build on start (LISTEN, paged snapshot read, sort, lease)',
        opsPerSec: 1000 / buildMs,
        display: `${(buildMs / 1000).toFixed(2)} s`,
        note: `${Math.round((KEYS * 1000) / buildMs).toLocaleString('en')} ids/s read and sorted; loading the keys took ${loadSeconds.toFixed(0)} s.`,
      },
      {
        group: GROUP,
        name: 'findActive of random (unknown) ids, answered in memory',
        opsPerSec: lookupsPerSec,
        note: `${LOOKUPS - refused} of ${LOOKUPS.toLocaleString('en')} lookups needed the database (false positives).`,
      },
    ];
  } finally {
    await scratch.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await run()) console.log(`${row.name}: ${row.display ?? Math.round(row.opsPerSec)}${row.note ? ` (${row.note})` : ''}`);
}
