/**
 * Issue 25 on the wire: two reference servers (exactly as `pnpm start` runs them) on one PostgreSQL.
 *
 * - **Random-key flood** at 32 and 128 in flight, split over both instances: well-formed `hp_` keys
 *   nobody minted, each request a new one (what a guesser sends). Database transactions per flood
 *   request: the scratch database's `pg_stat_database.xact_commit` delta over the flood / the flood's
 *   requests (target <= 0.01; the delta also holds the instances' own lease renewals over the
 *   window, so it over-counts; the figure without them, from an idle window as long, is shown
 *   beside it). Every flood answer must be a 401: a 2xx or a 5xx fails the bench.
 * - **A legitimate request's p99 during the flood against idle**: one connection sends `GET /whoami`
 *   with a valid key to instance A, alone (idle) and while each flood runs; ratio = idle p99 /
 *   flood p99 (1.00 = the flood costs a legitimate request nothing).
 * - **Mint on A, then use on B**, MINTS times, right after the floods (B has just answered random
 *   keys): `POST /keys` on A, then at once `GET /whoami` with the new key on B; failures (target 0).
 *
 * PostgreSQL counts a backend's transactions in `pg_stat_database` when the backend flushes its
 * statistics: at most once a second while busy, and 10 s after it goes idle. Each flood is read
 * between two readings taken after a quiet SETTLE_MS (default 11 000), so both hold every
 * transaction; the idle p99 is measured during those quiet windows.
 *
 * Needs PostgreSQL (BENCH_POSTGRES_URL, see scratch-database.mjs). BENCH_FLOOD_SECONDS (default 5),
 * BENCH_FLOOD_ROUNDS (default 2; each keeps its best round), BENCH_FLOOD_MINTS (default 1000) and
 * BENCH_FLOOD_SETTLE_MS bound the run.
 *
 *   pnpm build && node bench/run.mjs flood
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { LocalIdentityProvider } from '@drops/auth/testing';
import { mintKey, startAll, startReference, whoami } from './reference-servers.mjs';
import { ADMIN_URL, createScratchDatabase } from './scratch-database.mjs';

const SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_FLOOD_ROUNDS ?? 2);
const MINTS = Number(process.env.BENCH_FLOOD_MINTS ?? 1_000);
const SETTLE_MS = Number(process.env.BENCH_FLOOD_SETTLE_MS ?? 11_000);
const FLOODS = [32, 128];
const TARGET_XACTS = 0.01;
const GROUP = 'random-key flood, 2 reference servers on one PostgreSQL';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const randomKey = () => `hp_${randomBytes(32).toString('base64url')}`;
const ms = (x) => `${x < 10 ? x.toFixed(2) : x.toFixed(1)} ms`;

/** `inFlight` connections split over `urls`, each request a fresh random key; every answer must be a 401. */
async function flood(urls, inFlight, seconds) {
  const results = await Promise.all(
    urls.map((url) =>
      autocannon({
        url: `${url}/whoami`,
        connections: inFlight / urls.length,
        duration: seconds,
        requests: [{ setupRequest: (req) => ({ ...req, headers: { authorization: `Bearer ${randomKey()}` } }) }],
      }),
    ),
  );
  let requests = 0;
  for (const r of results) {
    const unauthorized = r.statusCodeStats?.['401']?.count ?? 0;
    const total = r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'];
    if (unauthorized !== total || r.errors > 0 || r.timeouts > 0) {
      throw new Error(`flood: ${total - unauthorized} answers other than 401 (${JSON.stringify(r.statusCodeStats)}), ${r.errors} errors`);
    }
    requests += total;
  }
  return requests;
}

/**
 * One connection of legitimate requests for `seconds`; its p99 in ms (Infinity if none was answered
 * within the window). Any non-2xx fails the bench.
 */
async function legitimate(url, authorization, seconds) {
  const r = await autocannon({ url: `${url}/whoami`, connections: 1, duration: seconds, headers: { authorization } });
  if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0) throw new Error(`legitimate requests: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r['2xx'] === 0 ? Number.POSITIVE_INFINITY : r.latency.p99;
}

/** Committed transactions of `database` so far, once every backend has flushed its statistics. */
async function settledCommits(admin, database) {
  await sleep(SETTLE_MS);
  await admin.query('select pg_stat_clear_snapshot()');
  const { rows } = await admin.query('select xact_commit::bigint as n from pg_stat_database where datname = $1', [database]);
  return Number(rows[0].n);
}

/** Mints on `a` then uses on `b`, `count` times; failures and mints/s. */
async function mintThenUse(a, b, idToken, count) {
  let failures = 0;
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const key = await mintKey(a.url, idToken);
    const res = await fetch(`${b.url}/whoami`, { headers: { authorization: `Bearer ${key}` } });
    const body = await res.json();
    if (res.status !== 200 || body.credential !== 'api_key') failures++;
  }
  return { failures, perSecond: (count * 1000) / (performance.now() - t0) };
}

export async function run() {
  const idp = await LocalIdentityProvider.start({ audience: 'drops-bench' });
  const idToken = idp.mintIdToken({ sub: 'acct_bench' });
  const scratch = await createScratchDatabase('flood');
  const database = new URL(scratch.url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const env = {
    AUTH_ISSUER: idp.issuer,
    AUTH_AUDIENCE: idp.audience,
    AUTH_JWKS_URL: idp.jwksUrl,
    DATABASE_URL: scratch.url,
    // The mint-then-use loop mints MINTS keys for one account.
    MINT_RATE_LIMIT: String(MINTS + 10),
    MAX_KEYS_PER_ACCOUNT: String(MINTS + 10),
  };
  const procs = [];
  try {
    // A first, so that it migrates the database alone.
    const [a] = await startAll(procs, [startReference('reference server A', env)]);
    const [b] = await startAll(procs, [startReference('reference server B', env)]);
    const legit = `Bearer ${await mintKey(a.url, idToken)}`;
    for (const server of [a, b]) {
      if ((await whoami(server.url, legit)).credential !== 'api_key') throw new Error(`${server.label}: the key does not work`);
    }
    // Warm-up: connections, JIT, the instances' caches.
    await Promise.all([flood([a.url, b.url], 32, 1), legitimate(a.url, legit, 1)]);

    // Each flood is read between two settled readings; the settling after one is the reading
    // before the next, and the idle legitimate requests run while it settles (they are answered
    // from memory: no transactions of their own).
    // The instances' own transactions (lease renewals, last-used writes) per ms, over a window
    // with no flood, as long as a flood's: a flood's delta less this is what the flood cost.
    let idleP99 = await legitimate(a.url, legit, SECONDS);
    let commits = await settledCommits(admin, database);
    let readAt = performance.now();
    await sleep(SECONDS * 1000);
    const idleCommits = await settledCommits(admin, database);
    const background = (idleCommits - commits) / (performance.now() - readAt);
    commits = idleCommits;
    readAt = performance.now();
    const floods = FLOODS.map((inFlight) => ({ inFlight, p99: Infinity, xacts: Infinity, net: 0, requests: 0, rate: 0 }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const f of floods) {
        const t0 = performance.now();
        const [requests, p99] = await Promise.all([flood([a.url, b.url], f.inFlight, SECONDS), legitimate(a.url, legit, SECONDS)]);
        const elapsed = performance.now() - t0;
        const [after, idle] = await Promise.all([settledCommits(admin, database), legitimate(a.url, legit, SECONDS)]);
        const xacts = (after - commits) / requests;
        const net = Math.max(0, after - commits - background * (performance.now() - readAt)) / requests;
        commits = after;
        readAt = performance.now();
        if (process.env.BENCH_VERBOSE) {
          process.stderr.write(
            `  round ${round + 1}: ${f.inFlight} in flight: ${requests} requests, ${xacts.toFixed(4)} xacts/request (${net.toFixed(4)} without the background), p99 ${p99} ms (idle ${idle} ms)\n`,
          );
        }
        idleP99 = Math.min(idleP99, idle);
        f.p99 = Math.min(f.p99, p99);
        if (xacts < f.xacts) Object.assign(f, { xacts, net, requests, rate: (requests * 1000) / elapsed });
      }
    }
    const minted = await mintThenUse(a, b, idToken, MINTS);

    return [
      ...floods.map((f) => ({
        group: GROUP,
        name: `database transactions per flood request, ${f.inFlight} in flight`,
        opsPerSec: f.rate,
        display:
          `${f.xacts.toFixed(4)} xact/request (target ≤ ${TARGET_XACTS}: ${f.xacts <= TARGET_XACTS ? 'met' : 'MISSED'}; ` +
          `${f.net.toFixed(4)} without the instances' background of ${(background * 1000).toFixed(1)} xact/s; ` +
          `${f.requests} requests at ${(f.rate / 1e3).toFixed(1)} k/s)`,
      })),
      {
        group: GROUP,
        name: 'legitimate API-key request p99, idle (1 connection to A)',
        opsPerSec: 1000 / idleP99,
        display: `p99 ${ms(idleP99)}`,
      },
      ...floods.map((f) => ({
        group: GROUP,
        name: `legitimate API-key request p99 during the ${f.inFlight}-in-flight flood`,
        opsPerSec: 1000 / f.p99,
        display: `p99 ${ms(f.p99)}`,
        ratio: idleP99 / f.p99,
      })),
      {
        group: GROUP,
        name: `mint on A then use on B at once, ${MINTS} times`,
        opsPerSec: minted.perSecond,
        display: `${minted.failures} failures in ${MINTS} (target 0: ${minted.failures === 0 ? 'met' : 'MISSED'})`,
      },
    ];
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await admin.end();
    await idp.close();
    await scratch.drop();
  }
}
