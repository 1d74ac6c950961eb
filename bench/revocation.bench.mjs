/**
 * Revocation on PostgreSQL with the lease-coherent cache (docs/revocation.md):
 *
 * - `KeyStore.revoke` latency (what `DELETE /keys/<id>` waits for) with three instances on one
 *   database, each through its own TCP proxy: p50/p99 with every instance healthy, and the worst
 *   case with one instance partitioned (its proxy black-holed: bytes vanish, nothing closes), which
 *   the lease bounds.
 * - Database queries per authenticated request at steady state (a counting wrapper on the pool).
 * - The randomized revocation test (packages/postgres/src/revocation-chaos.test.ts) run longer:
 *   BENCH_CHAOS_MS (default 30 000), seed BENCH_CHAOS_SEED or random (printed).
 *
 * BENCH_LEASE_MS (default 6 000, the store's default), BENCH_REVOKES (default 300),
 * BENCH_PARTITIONED (default 3) bound the run. Needs PostgreSQL (BENCH_POSTGRES_URL).
 *
 *   pnpm build && node bench/run.mjs revocation
 */
import { performance } from 'node:perf_hooks';
import { tsImport } from 'tsx/esm/api';
import { createScratchDatabase } from './scratch-database.mjs';
import { createAuthenticator, generateApiKey } from '../packages/auth/dist/index.js';
import { startTcpProxy } from '../packages/auth/dist/testing/index.js';
import { fromPgPool, migrateKeyStore, openPostgres, PostgresKeyStore } from '../packages/postgres/dist/index.js';
import pg from 'pg';

const GROUP = 'revocation, PostgreSQL, 3 instances';
const LEASE_MS = Number(process.env.BENCH_LEASE_MS ?? 6_000);
const REVOKES = Number(process.env.BENCH_REVOKES ?? 300);
const PARTITIONED = Number(process.env.BENCH_PARTITIONED ?? 3);
const CHAOS_MS = Number(process.env.BENCH_CHAOS_MS ?? 30_000);

const { runRevocationChaos } = await tsImport('../packages/postgres/src/test-support/revocation-chaos.ts', import.meta.url);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const ms = (x) => `${x < 10 ? x.toFixed(2) : x.toFixed(0)} ms`;

/**
 * Until `store` answers `id` from memory. An instance that lost its lease (C, after its partition)
 * answers 503 until it has a new one and its membership: waited for here, for at most 30 s.
 */
async function cached(store, id) {
  const until = performance.now() + 30_000;
  for (;;) {
    try {
      const answer = store.findActive(id);
      if (!(answer instanceof Promise)) return;
      await answer;
    } catch (error) {
      if (error?.status !== 503 || performance.now() > until) throw error;
    }
    await sleep(5);
  }
}

async function instance(url) {
  const target = new URL(url);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  target.port = String(proxy.port);
  const store = new PostgresKeyStore({
    db: await openPostgres({ connectionString: target.toString(), connectionTimeoutMs: 1_000 }),
    closeDatabase: true,
    leaseMs: LEASE_MS,
    queryTimeoutMs: 1_000,
  });
  return { proxy, store };
}

export async function run() {
  const scratch = await createScratchDatabase('revocation');
  const direct = fromPgPool(new pg.Pool({ connectionString: scratch.url }));
  const rows = [];
  const instances = [];
  try {
    await migrateKeyStore(direct);
    for (let i = 0; i < 3; i++) instances.push(await instance(scratch.url));
    const [a, , c] = instances;

    // Healthy: every instance caches the key, then A revokes it.
    const healthy = [];
    for (let i = 0; i < REVOKES; i++) {
      const key = { ...generateApiKey(), accountId: 'acct_bench', name: null, createdAt: new Date() };
      await a.store.create(key);
      await Promise.all(instances.map((x) => cached(x.store, key.id)));
      const t0 = performance.now();
      await a.store.revoke('acct_bench', key.id, { at: new Date() });
      healthy.push(performance.now() - t0);
    }
    healthy.sort((x, y) => x - y);
    rows.push({
      group: GROUP,
      name: `revoke (DELETE) latency, all healthy, ${REVOKES} revokes`,
      opsPerSec: 1000 / quantile(healthy, 0.5),
      display: `p50 ${ms(quantile(healthy, 0.5))} · p99 ${ms(quantile(healthy, 0.99))} · max ${ms(healthy.at(-1))}`,
    });

    // Partitioned: C is black-holed just before the revoke; the revoke waits for C's lease.
    const partitioned = [];
    for (let i = 0; i < PARTITIONED; i++) {
      const key = { ...generateApiKey(), accountId: 'acct_bench', name: null, createdAt: new Date() };
      await a.store.create(key);
      await Promise.all(instances.map((x) => cached(x.store, key.id)));
      c.proxy.stall();
      const t0 = performance.now();
      await a.store.revoke('acct_bench', key.id, { at: new Date() });
      partitioned.push(performance.now() - t0);
      c.proxy.restore();
    }
    partitioned.sort((x, y) => x - y);
    rows.push({
      group: GROUP,
      name: `revoke (DELETE) latency, one instance partitioned (lease ${LEASE_MS} ms), ${PARTITIONED} revokes`,
      opsPerSec: 1000 / partitioned.at(-1),
      display: `p50 ${ms(quantile(partitioned, 0.5))} · worst ${ms(partitioned.at(-1))}`,
    });

    // Steady state: queries per authenticated request on one instance, after warm-up.
    let queries = 0;
    const pool = new pg.Pool({ connectionString: scratch.url });
    const inner = fromPgPool(pool);
    const counting = {
      ...inner,
      query: (...args) => {
        queries++;
        return inner.query(...args);
      },
    };
    const store = new PostgresKeyStore({ db: counting, closeDatabase: true });
    const authenticator = createAuthenticator({ keyStore: store });
    const keys = Array.from({ length: 100 }, () => ({ ...generateApiKey(), accountId: 'acct_steady', name: null, createdAt: new Date() }));
    for (const k of keys) await store.create(k);
    for (const k of keys) await cached(store, k.id);
    const before = queries;
    const N = 200_000;
    const t0 = performance.now();
    for (let i = 0; i < N; i++) await authenticator.authenticate(`Bearer ${keys[i % keys.length].secret}`);
    const elapsed = performance.now() - t0;
    rows.push({
      group: GROUP,
      name: 'database queries per authenticated API-key request, steady state (100 keys)',
      opsPerSec: (N * 1000) / elapsed,
      display: `${((queries - before) / N).toFixed(5)} queries/request (${queries - before} in ${N})`,
    });
    await store.close();

    // The randomized test, longer.
    const seed = Number(process.env.BENCH_CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const chaosDb = await createScratchDatabase('revocation_chaos');
    try {
      const chaosDirect = fromPgPool(new pg.Pool({ connectionString: chaosDb.url }));
      await migrateKeyStore(chaosDirect);
      const report = await runRevocationChaos({ url: chaosDb.url, direct: chaosDirect, seed, durationMs: CHAOS_MS });
      await chaosDirect.close();
      if (report.violations.length > 0) throw new Error(`revocation chaos, seed ${seed}: ${report.violations.join('; ')}`);
      const r = report.requests;
      rows.push({
        group: GROUP,
        name: `randomized revocation test, ${CHAOS_MS / 1000} s, seed ${seed}`,
        opsPerSec: ((r.accepted + r.refused + r.unavailable) * 1000) / CHAOS_MS,
        display:
          `0 violations · ${r.accepted + r.refused + r.unavailable} requests · ${report.revocationsReturned} revocations returned · ` +
          `${report.mints.usedElsewhere} keys minted and used at once on another instance · ` +
          `${report.flood.refused + report.flood.unavailable} random-key requests (${report.flood.unavailable} 503s, none under a held lease) · ` +
          `faults ${JSON.stringify(report.faults)}`,
      });
    } finally {
      await chaosDb.drop();
    }
  } finally {
    await Promise.all(instances.map((x) => x.store.close().catch(() => {})));
    await Promise.all(instances.map((x) => x.proxy.close()));
    await direct.close();
    await scratch.drop();
  }
  return rows;
}
