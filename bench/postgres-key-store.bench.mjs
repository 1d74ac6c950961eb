/**
 * API key through @drops/auth-postgres: `findActive` of a random key among 10k, and a whole
 * `authenticate` (parse, SHA-256, lookup, recordUse), at 32 requests in flight, against the floor of
 * one raw primary-key SELECT through the same `pg` pool at the same concurrency. Target on
 * PostgreSQL: authenticate >= 0.8x the floor. PGlite (in memory) is reported against its own floor.
 *
 * Needs a PostgreSQL server: BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres)
 * is used to create and drop a scratch database. BENCH_MS sets each measurement's length (default 5000).
 *
 *   pnpm build && node bench/postgres-key-store.bench.mjs
 */
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { asyncOpsPerSec } from './measure.mjs';
import { createScratchDatabase } from './scratch-database.mjs';
import { PGlite } from '@electric-sql/pglite';
import { createAuthenticator, generateApiKey } from '../packages/auth/dist/index.js';
import { fromPGlite, fromPgPool, KEYS_TABLE, migrateKeyStore, PostgresKeyStore } from '../packages/postgres/dist/index.js';

const MS = Number(process.env.BENCH_MS ?? 5_000);
const KEYS = 10_000;
const CONCURRENCY = 32;
const TARGET = 0.8;
const ROUNDS = 5;
const FLOOR_SQL = `select account_id from ${KEYS_TABLE} where id = $1 and revoked_at is null`;

/** `fn(i)` with CONCURRENCY calls in flight for `ms`; ops/s. */
const opsPerSec = (fn, ms = MS) => asyncOpsPerSec(fn, { ms, warmupMs: 0, concurrency: CONCURRENCY });

function makeKeys() {
  return Array.from({ length: KEYS }, (_, i) => ({ ...generateApiKey(), accountId: `acct_${i % 1000}` }));
}

async function seed(db, keys) {
  await migrateKeyStore(db);
  for (let i = 0; i < keys.length; i += 1000) {
    const chunk = keys.slice(i, i + 1000);
    await db.query(
      `insert into ${KEYS_TABLE} (id, account_id, prefix, created_at)
       select unnest($1::text[]), unnest($2::text[]), unnest($3::text[]), now()`,
      [chunk.map((k) => k.id), chunk.map((k) => k.accountId), chunk.map((k) => k.prefix)],
    );
  }
}

/** Measures one engine: floor(s), findActive, authenticate. Returns result rows. */
async function measure(group, db, floors, keys, target) {
  const store = new PostgresKeyStore({ db });
  const authenticator = createAuthenticator({ keyStore: store });
  const headers = keys.map((k) => `Bearer ${k.secret}`);
  const pick = () => Math.floor(Math.random() * keys.length);
  let misses = 0;

  const findActive = async () => {
    const k = keys[pick()];
    if ((await store.findActive(k.id))?.accountId !== k.accountId) misses++;
  };
  const authenticate = async () => {
    const i = pick();
    if ((await authenticator.authenticate(headers[i])).accountId !== keys[i].accountId) misses++;
  };

  const contenders = [
    ...floors.map((f) => ({ name: `floor: ${f.name}`, fn: f.fn, floor: true })),
    { name: 'PostgresKeyStore.findActive', fn: findActive },
    { name: 'authenticate (API key, PostgresKeyStore)', fn: authenticate },
  ];
  // Warm up every path (connections, plans, JIT), then measure in interleaved rounds so that a
  // change in machine load over time hits every contender alike.
  for (const c of contenders) await opsPerSec(c.fn, Math.min(500, MS));
  const totals = contenders.map(() => 0);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, c] of contenders.entries()) totals[i] += await opsPerSec(c.fn, MS / ROUNDS);
  }
  const mean = totals.map((t) => t / ROUNDS);
  const floor = Math.max(...mean.filter((_, i) => contenders[i].floor));
  const rows = contenders.map((c, i) =>
    c.floor ? { group, name: c.name, opsPerSec: mean[i] } : { group, name: c.name, opsPerSec: mean[i], ratio: mean[i] / floor, target },
  );
  await store.close();
  if (misses > 0) throw new Error(`${group}: ${misses} lookups answered wrong`);
  return rows;
}

async function postgres(keys) {
  const scratch = await createScratchDatabase('keys');
  const pool = new pg.Pool({ connectionString: scratch.url, max: 10 });
  try {
    const db = fromPgPool(pool);
    await seed(db, keys);
    await pool.query('analyze');
    const pick = () => keys[Math.floor(Math.random() * keys.length)];
    const floors = [
      { name: 'pg pool.query primary-key SELECT', fn: () => pool.query(FLOOR_SQL, [pick().id]) },
      {
        name: 'pg pool.query primary-key SELECT, prepared',
        fn: () => pool.query({ name: 'bench_floor', text: FLOOR_SQL, values: [pick().id] }),
      },
    ];
    return await measure('API key, PostgreSQL (pg, pool of 10)', db, floors, keys, TARGET);
  } finally {
    await pool.end();
    await scratch.drop();
  }
}

async function pglite(keys) {
  const lite = await PGlite.create();
  try {
    const db = fromPGlite(lite);
    await seed(db, keys);
    const pick = () => keys[Math.floor(Math.random() * keys.length)];
    const floors = [{ name: 'PGlite query primary-key SELECT', fn: () => lite.query(FLOOR_SQL, [pick().id]) }];
    return await measure('API key, PGlite (in memory)', db, floors, keys, undefined);
  } finally {
    await lite.close();
  }
}

/** Runs both engines; result rows `{ group, name, opsPerSec, ratio?, target? }`. */
export async function run() {
  const keys = makeKeys();
  return [...(await postgres(keys)), ...(await pglite(keys))];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await run();
  for (const r of rows) {
    const ratio = r.ratio === undefined ? '' : `  ${r.ratio.toFixed(2)}x floor`;
    const verdict = r.target === undefined ? '' : r.ratio >= r.target ? `  (target ${r.target}x: met)` : `  (target ${r.target}x: MISSED)`;
    console.log(`${r.group.padEnd(38)} ${r.name.padEnd(46)} ${Math.round(r.opsPerSec).toString().padStart(8)} ops/s${ratio}${verdict}`);
  }
}
