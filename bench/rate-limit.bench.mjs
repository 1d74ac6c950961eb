/**
 * A rate limit's cost per request: one `take()` of the in-process store (the default, one process)
 * against one of `PostgresRateLimitStore` (rate-limiter-flexible's RateLimiterPostgres on our
 * migration 8 table, shared by every instance), at 32 in flight through a pool of 10: a subject
 * under its limit (one upsert), one past it (refused from memory, no query), and the floor of one
 * raw `select 1` through the same kind of pool. Ratios: each PostgreSQL row against the floor.
 *
 * Needs a PostgreSQL server (BENCH_POSTGRES_URL, see scratch-database.mjs). BENCH_MS sets each
 * measurement's length (default 5000).
 *
 *   pnpm build && node bench/rate-limit.bench.mjs
 */
import { pathToFileURL } from 'node:url';
import { inProcessRateLimitStore } from '../packages/auth/dist/index.js';
import { migrateKeyStore, openPostgres, PostgresRateLimitStore } from '../packages/postgres/dist/index.js';
import { asyncOpsPerSec } from './measure.mjs';
import { createScratchDatabase } from './scratch-database.mjs';

const MS = Number(process.env.BENCH_MS ?? 5_000);
const CONCURRENCY = 32;
const SUBJECTS = 10_000;
const GROUP = 'rate limit take() (32 in flight)';
const OPEN = { max: 1_000_000_000, windowMs: 3_600_000 };

/** `fn(i)` with CONCURRENCY calls in flight for `ms`; ops/s. */
const opsPerSec = (fn, ms = MS) => asyncOpsPerSec(fn, { ms, warmupMs: 0, concurrency: CONCURRENCY });

/** Result rows `{ group, name, opsPerSec, ratio?, note? }`. */
export async function run() {
  const scratch = await createScratchDatabase('rate_limit');
  const db = await openPostgres({ connectionString: scratch.url });
  try {
    await migrateKeyStore(db);
    const memory = inProcessRateLimitStore();
    const shared = new PostgresRateLimitStore({ db });
    const subject = (i) => `203.0.113.${i % 250}/${i % SUBJECTS}`;
    // Warm up: prepared statements, pool connections.
    for (let i = 0; i < 200; i++) await shared.take('bench', subject(i), OPEN);
    const floor = await opsPerSec(() => db.query('select 1'));
    const inProcess = await opsPerSec((i) => memory.take('bench', subject(i), OPEN));
    const under = await opsPerSec((i) => shared.take('bench', subject(i), OPEN));
    const tight = { max: 1, windowMs: 3_600_000 };
    await shared.take('bench_past', 'flooder', tight);
    await shared.take('bench_past', 'flooder', tight);
    const past = await opsPerSec(() => shared.take('bench_past', 'flooder', tight));
    return [
      { group: GROUP, name: 'floor: pg pool.query select 1', opsPerSec: floor },
      { group: GROUP, name: 'in-process store (one process)', opsPerSec: inProcess, note: 'no I/O' },
      { group: GROUP, name: 'PostgresRateLimitStore, under the limit (one upsert)', opsPerSec: under, ratio: under / floor },
      { group: GROUP, name: 'PostgresRateLimitStore, past the limit (from memory)', opsPerSec: past, ratio: past / floor },
    ];
  } finally {
    await db.close();
    await scratch.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await run()) {
    const ratio = r.ratio === undefined ? '' : `  ${r.ratio.toFixed(2)}x floor`;
    console.log(`${r.name.padEnd(56)} ${Math.round(r.opsPerSec).toString().padStart(9)} ops/s${ratio}`);
  }
}
