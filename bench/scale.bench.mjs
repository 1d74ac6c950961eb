/**
 * Scale: the cost of one key lookup with 1 k, 100 k and 1 M stored keys on PostgreSQL.
 *
 * One table grows through the three sizes (rows bulk-inserted in SQL with generate_series and
 * sha256(), so ids are real 64-hex key ids; one in ten is revoked, as a long-lived service
 * accumulates them). At each size, after ANALYZE and a warm-up:
 *   - PostgresKeyStore.findActive of random stored ids (a mix of active and revoked, the same path)
 *     at 32 in flight through a pg pool of 10, with `cache: false`, so every lookup is the query:
 *     what a lookup the cache cannot answer pays (with the cache on, 1 k keys all fit in memory and
 *     100 k do not, so the ratio would compare memory with the database; the cached path is the
 *     membership bench's);
 *   - EXPLAIN (ANALYZE, BUFFERS) of the same lookup: the plan, the server-side execution time
 *     (median of 200 lookups) and the buffers it touches (the B-tree's depth, plus the heap page).
 *
 * Needs PostgreSQL: BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres) is used
 * to create and drop a scratch database. BENCH_SCALE_MS (default 2000) is each measurement's length.
 *
 *   pnpm build && node bench/run.mjs scale
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { asyncOpsPerSec } from './measure.mjs';
import { createScratchDatabase } from './scratch-database.mjs';
import { fromPgPool, KEYS_TABLE, migrateKeyStore, PostgresKeyStore } from '@drops/auth-postgres';

const MS = Number(process.env.BENCH_SCALE_MS ?? 2_000);
const SIZES = (process.env.BENCH_SCALE_SIZES ?? '1000,100000,1000000').split(',').map(Number);
const CONCURRENCY = 32;
const ROUNDS = 3;
const GROUP = 'Scale: key lookup on PostgreSQL';

const idOf = (i) => createHash('sha256').update(`bench-key-${i}`).digest('hex');

/** `fn(i)` with CONCURRENCY calls in flight for `ms`; ops/s. */
const opsPerSec = (fn, ms) => asyncOpsPerSec(fn, { ms, warmupMs: 0, concurrency: CONCURRENCY });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run() {
  const scratch = await createScratchDatabase('scale');
  const pool = new pg.Pool({ connectionString: scratch.url, max: 10 });
  const rows = [];
  try {
    const db = fromPgPool(pool);
    await migrateKeyStore(db);
    const store = new PostgresKeyStore({ db, cache: false });
    let stored = 0;
    for (const size of SIZES) {
      const started = performance.now();
      await pool.query(
        `insert into ${KEYS_TABLE} (id, account_id, prefix, created_at, revoked_at)
         select encode(sha256(convert_to('bench-key-' || i, 'UTF8')), 'hex'), 'acct_' || (i % 10000), 'hp_bench00', now(),
                case when i % 10 = 0 then now() end
         from generate_series($1::int, $2::int) as i`,
        [stored + 1, size],
      );
      stored = size;
      await pool.query(`vacuum analyze ${KEYS_TABLE}`);
      const loadSeconds = (performance.now() - started) / 1000;
      const pick = () => {
        const i = 1 + Math.floor(Math.random() * size);
        return { id: idOf(i), active: i % 10 !== 0 };
      };
      let wrong = 0;
      const lookup = async () => {
        const { id, active } = pick();
        if (((await store.findActive(id)) !== null) !== active) wrong++;
      };
      await opsPerSec(lookup, 500);
      let best = 0;
      for (let r = 0; r < ROUNDS; r++) best = Math.max(best, await opsPerSec(lookup, MS / ROUNDS));
      if (wrong > 0) throw new Error(`${size} keys: ${wrong} lookups answered wrong`);

      // Server-side cost of one lookup: the plan, its execution time and the buffers it touches.
      const times = [];
      let plan = '';
      let buffers = 0;
      for (let k = 0; k < 200; k++) {
        const { rows: out } = await pool.query(
          `explain (analyze, buffers, format json) select account_id from ${KEYS_TABLE} where id = $1 and revoked_at is null`,
          [pick().id],
        );
        const top = out[0]['QUERY PLAN'][0];
        times.push(top['Execution Time']);
        plan = `${top.Plan['Node Type']} using ${top.Plan['Index Name']}`;
        buffers = Math.max(buffers, top.Plan['Shared Hit Blocks'] + top.Plan['Shared Read Blocks']);
      }
      const index = plan.split(' using ')[1];
      const { rows: sizeRows } = await pool.query(
        `select pg_relation_size($1::regclass) as index_bytes, pg_relation_size($2::regclass) as table_bytes`,
        [index, KEYS_TABLE],
      );
      const mib = (b) => `${(Number(b) / 2 ** 20).toFixed(1)} MiB`;
      rows.push({
        group: GROUP,
        name: `findActive, ${size.toLocaleString('en')} keys (32 in flight)`,
        opsPerSec: best,
        note:
          `${plan}; server execution ${median(times).toFixed(3)} ms (median of 200 EXPLAIN ANALYZE), ` +
          `at most ${buffers} buffers per lookup; index ${mib(sizeRows[0].index_bytes)}, ` +
          `table ${mib(sizeRows[0].table_bytes)}; loaded in ${loadSeconds.toFixed(1)} s.`,
      });
    }
    await store.close();
    const first = rows[0].opsPerSec;
    for (const r of rows) r.ratio = r.opsPerSec / first;
    return rows;
  } finally {
    await pool.end();
    await scratch.drop();
  }
}
