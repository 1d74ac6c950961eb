/**
 * PostgreSQL through a transaction-mode pooler (docs/postgres.md#poolers): a mint then a revocation
 * of the same key (each waiting for acknowledgements) through Debian's PgBouncer (queries unnamed, listening on a direct connection) against the same
 * straight to PostgreSQL, 8 in flight, with a second instance listening so each one waits for an
 * acknowledgement; and the time to `ready()` (LISTEN, the NOTIFY round trip through the query
 * connection that proves the session hears, the membership and the first lease).
 *
 * Needs PostgreSQL (BENCH_POSTGRES_URL) and pgbouncer (apt-get install pgbouncer). BENCH_MS sets
 * each measurement's length (default 5000).
 *
 *   pnpm build && node bench/pooler.bench.mjs
 */
import { pathToFileURL } from 'node:url';
import { asyncOpsPerSec } from './measure.mjs';
import { startPgBouncer } from './pgbouncer.mjs';
import { createScratchDatabase } from './scratch-database.mjs';
import { generateApiKey } from '../packages/auth/dist/index.js';
import { migrateKeyStore, openPostgres, PostgresKeyStore } from '../packages/postgres/dist/index.js';

const MS = Number(process.env.BENCH_MS ?? 5_000);
const CONCURRENCY = 8;
const ROUNDS = 3;

const newKey = (i) => {
  const { id, prefix } = generateApiKey();
  return { id, prefix, accountId: `acct_${i % 100}`, name: 'bench', createdAt: new Date(), expiresAt: null };
};

async function openStore(options) {
  const started = performance.now();
  const store = new PostgresKeyStore({ db: await openPostgres(options), closeDatabase: true });
  await store.ready();
  return { store, readyMs: performance.now() - started };
}

export async function run() {
  const scratch = await createScratchDatabase('pooler');
  const bouncer = await startPgBouncer('transaction');
  const direct = scratch.url;
  const stores = [];
  try {
    const admin = await openPostgres({ connectionString: direct });
    await migrateKeyStore(admin);
    await admin.close();
    const peer = await openStore({ connectionString: direct });
    stores.push(peer.store);
    const paths = [
      { name: 'direct', options: { connectionString: direct } },
      {
        name: 'PgBouncer 1.18, transaction mode (listening direct)',
        options: { connectionString: bouncer.through(direct), listenConnectionString: direct },
      },
    ];
    const measured = [];
    for (const path of paths) {
      const { store, readyMs } = await openStore(path.options);
      stores.push(store);
      let n = 0;
      const mintThenRevoke = async () => {
        const key = newKey(n++);
        await store.create(key);
        await store.revoke(key.accountId, key.id, { at: new Date() });
      };
      measured.push({ path, readyMs, mintThenRevoke, ops: 0 });
    }
    // Interleaved rounds: a change in machine load hits both paths alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (const m of measured)
        m.ops += (await asyncOpsPerSec(m.mintThenRevoke, { ms: MS / ROUNDS, warmupMs: 0, concurrency: CONCURRENCY })) / ROUNDS;
    }
    const [base] = measured;
    return measured.flatMap((m) => [
      { group: 'pooler', name: `mint then revoke (8 in flight), ${m.path.name}`, opsPerSec: m.ops, ratio: m.ops / base.ops },
      {
        group: 'pooler',
        name: `ready() (LISTEN, hearing check, membership, lease), ${m.path.name}`,
        opsPerSec: 1000 / m.readyMs,
        note: `${m.readyMs.toFixed(0)} ms`,
      },
    ]);
  } finally {
    for (const store of stores) await store.close();
    await bouncer.stop();
    await scratch.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await run())
    console.log(
      `${row.name}: ${row.opsPerSec.toFixed(1)}/s${row.ratio ? ` (${row.ratio.toFixed(2)}x)` : ''}${row.note ? ` ${row.note}` : ''}`,
    );
}
