/**
 * Timing report: how long the 401 takes for each kind of bad credential, through
 * `createAuthenticator` + `PostgresKeyStore` (PostgreSQL over `pg`, and PGlite in memory), one
 * call at a time with the kinds interleaved in a random order, so that load elsewhere on the
 * machine hits every kind alike.
 *
 * Kinds: an active key (for reference, a success), an unknown key, a revoked key, a malformed
 * credential and an expired ID token. The question that matters is whether a revoked key can be
 * told from an unknown one by its answer time (an oracle that a key once existed): the two are
 * compared with a Mann-Whitney U test (two-sided, normal approximation), the probability of
 * superiority, and a bootstrap 95% confidence interval of the difference of the medians.
 * "DIFFER" means p < 0.001 and a confidence interval that excludes 0. Before key store migration 2
 * they did differ (PostgreSQL: revoked +2.8 µs, p 0.0001; PGlite: +3.8 µs, p < 0.0001): a revoked
 * id was found in the primary key and fetched from the heap before being refused.
 *
 * BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres) is used to create and
 * drop a scratch database; BENCH_TIMING_SAMPLES sets the samples per kind (default 4000).
 *
 *   pnpm build && node bench/timing.bench.mjs
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { mannWhitney } from './mann-whitney.mjs';
import { createScratchDatabase } from './scratch-database.mjs';
import { PGlite } from '@electric-sql/pglite';
import { createAuthenticator, createIdTokenVerifier, generateApiKey, UnauthenticatedError } from '../packages/auth/dist/index.js';
import { LocalIdentityProvider } from '../packages/auth/dist/testing/index.js';
import { fromPGlite, fromPgPool, KEYS_TABLE, migrateKeyStore, PostgresKeyStore } from '../packages/postgres/dist/index.js';

const SAMPLES = Number(process.env.BENCH_TIMING_SAMPLES ?? 4_000);
const ACTIVE = 10_000;
// Every unknown and every revoked key is used once (warm-up included), and all are made before
// sampling, so neither kind carries allocation or garbage collection the other does not.
const REVOKED = SAMPLES + 300;
const KINDS = ['active', 'unknown', 'revoked', 'malformed', 'expired'];

// ---- statistics -------------------------------------------------------------------------------

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))];
const median = (values) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

/** Bootstrap 95% CI of median(a) - median(b). */
export function bootstrapMedianDifference(a, b, resamples = 1_000) {
  const draw = (xs) => {
    const out = new Float64Array(xs.length);
    for (let i = 0; i < xs.length; i++) out[i] = xs[(Math.random() * xs.length) | 0];
    return out.sort();
  };
  const diffs = [];
  for (let r = 0; r < resamples; r++) diffs.push(quantile(draw(a), 0.5) - quantile(draw(b), 0.5));
  diffs.sort((x, y) => x - y);
  return { estimate: median(a) - median(b), low: quantile(diffs, 0.025), high: quantile(diffs, 0.975) };
}

// ---- measurement ------------------------------------------------------------------------------

function makeKeys(n, prefix) {
  return Array.from({ length: n }, (_, i) => ({ ...generateApiKey(), accountId: `${prefix}_${i % 500}` }));
}

async function seed(db, active, revoked) {
  await migrateKeyStore(db);
  for (const [keys, revokedAt] of [
    [active, null],
    [revoked, new Date()],
  ]) {
    for (let i = 0; i < keys.length; i += 1000) {
      const chunk = keys.slice(i, i + 1000);
      await db.query(
        `insert into ${KEYS_TABLE} (id, account_id, prefix, created_at, revoked_at)
         select unnest($1::text[]), unnest($2::text[]), unnest($3::text[]), now(), $4::timestamptz`,
        [chunk.map((k) => k.id), chunk.map((k) => k.accountId), chunk.map((k) => k.prefix), revokedAt],
      );
    }
  }
}

/** Latency samples (µs) per kind, interleaved in a shuffled order each round. */
async function sample(authenticator, credentials) {
  const samples = Object.fromEntries(KINDS.map((k) => [k, []]));
  const order = [...KINDS];
  const once = async (kind, i) => {
    const header = credentials[kind](i);
    const start = performance.now();
    let outcome;
    try {
      await authenticator.authenticate(header);
      outcome = 'ok';
    } catch (error) {
      outcome = error instanceof UnauthenticatedError ? '401' : error;
    }
    const elapsed = (performance.now() - start) * 1000;
    const expected = kind === 'active' ? 'ok' : '401';
    if (outcome !== expected) throw new Error(`${kind}: expected ${expected}, got ${outcome}`);
    return elapsed;
  };
  for (let i = 0; i < 300; i++) for (const kind of KINDS) await once(kind, i); // warm-up: plans, JIT, pool
  for (let i = 0; i < SAMPLES; i++) {
    for (let j = order.length - 1; j > 0; j--) {
      const k = (Math.random() * (j + 1)) | 0;
      [order[j], order[k]] = [order[k], order[j]];
    }
    for (const kind of order) samples[kind].push(await once(kind, i));
  }
  return samples;
}

const us = (v) => (v >= 1000 ? `${(v / 1000).toFixed(2)} ms` : `${v.toFixed(v < 10 ? 1 : 0)} µs`);

function rowsOf(group, samples) {
  const rows = [];
  for (const kind of KINDS) {
    const sorted = [...samples[kind]].sort((a, b) => a - b);
    const [p50, p90, p99] = [0.5, 0.9, 0.99].map((q) => quantile(sorted, q));
    rows.push({
      group,
      name:
        kind === 'active'
          ? 'active key (200, for reference)'
          : `401: ${kind} ${kind === 'expired' ? 'ID token' : kind === 'malformed' ? 'credential' : 'key'}`,
      opsPerSec: 1e6 / p50,
      display: `p50 ${us(p50)} · p90 ${us(p90)} · p99 ${us(p99)}`,
    });
  }
  const mw = mannWhitney(samples.revoked, samples.unknown);
  const ci = bootstrapMedianDifference(samples.revoked, samples.unknown);
  const differ = mw.p < 0.001 && (ci.low > 0 || ci.high < 0);
  rows.push({
    group,
    name: 'revoked vs unknown key',
    opsPerSec: 0,
    display: `${differ ? 'DIFFER' : 'same'}: Δmedian ${ci.estimate.toFixed(1)} µs [${ci.low.toFixed(1)}, ${ci.high.toFixed(1)}], P(revoked slower) ${mw.superiority.toFixed(3)}, p ${mw.p.toFixed(3)}`,
    note:
      `${group}: ${SAMPLES} samples per kind. Mann-Whitney U revoked vs unknown: z = ${mw.z.toFixed(2)}, p = ${mw.p.toFixed(4)}, ` +
      `probability that a revoked lookup is slower than an unknown one ${mw.superiority.toFixed(3)} (0.5 = indistinguishable); ` +
      `bootstrap 95% CI of the median difference ${ci.low.toFixed(2)} to ${ci.high.toFixed(2)} µs. Verdict: ${differ ? 'DIFFER' : 'indistinguishable'}.`,
  });
  return rows;
}

async function measure(group, db, idp) {
  const store = new PostgresKeyStore({ db });
  const verifier = createIdTokenVerifier({ ...idp.verifierOptions });
  await verifier.warmUp();
  const authenticator = createAuthenticator({ keyStore: store, idTokenVerifier: verifier });
  const active = makeKeys(ACTIVE, 'acct');
  const revoked = makeKeys(REVOKED, 'gone');
  await seed(db, active, revoked);
  await db.query('analyze');
  const unknown = Array.from({ length: REVOKED }, () => `Bearer ${generateApiKey().secret}`);
  let nextUnknown = 0;
  let nextRevoked = 0;
  const expired = Array.from({ length: 16 }, (_, i) => idp.mintIdToken({ sub: `user-${i}` }, { expiresInSeconds: -120 }));
  const credentials = {
    active: (i) => `Bearer ${active[i % active.length].secret}`,
    // A fresh random key every time: never seen, never cached anywhere.
    unknown: () => unknown[nextUnknown++],
    revoked: () => `Bearer ${revoked[nextRevoked++].secret}`,
    malformed: (i) => `Bearer hp_${'x'.repeat(i % 40)}`,
    expired: (i) => `Bearer ${expired[i % expired.length]}`,
  };
  try {
    return rowsOf(group, await sample(authenticator, credentials));
  } finally {
    await store.close();
  }
}

async function onPostgres(idp) {
  const scratch = await createScratchDatabase('timing');
  const pool = new pg.Pool({ connectionString: scratch.url, max: 4 });
  try {
    return await measure('timing: 401 on PostgreSQL', fromPgPool(pool), idp);
  } finally {
    await pool.end();
    await scratch.drop();
  }
}

async function onPGlite(idp) {
  const lite = await PGlite.create();
  try {
    return await measure('timing: 401 on PGlite', fromPGlite(lite), idp);
  } finally {
    await lite.close();
  }
}

/** Result rows for bench/run.mjs. */
export async function run() {
  const idp = await LocalIdentityProvider.start();
  try {
    return [...(await onPostgres(idp)), ...(await onPGlite(idp))];
  } finally {
    await idp.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await run();
  for (const r of rows) console.log(`${r.group.padEnd(28)} ${r.name.padEnd(34)} ${r.display}`);
  for (const r of rows) if (r.note) console.log(`\n${r.note}`);
}
