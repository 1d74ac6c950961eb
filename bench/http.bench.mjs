/**
 * HTTP over loopback: the reference server's `GET /whoami` with an API key and with an ID token, on
 * embedded PGlite (in a folder, as `pnpm start` keeps `.data`; pglite-folder.mjs) and on
 * PostgreSQL, against a bare Express 5 route answering the same JSON with no auth (the baseline of
 * the targets), the same route on a server that declares Express's per-request properties up front
 * as the reference server does (the reference server against it, like for like, is
 * like-for-like.bench.mjs), a bare node:http server (the HTTP floor) and the same route behind
 * express-oauth2-jwt-bearer.
 *
 * Every server is its own child process (the reference server exactly as `pnpm start` runs it:
 * `LOG_LEVEL=info`, one JSON access line per request going to /dev/null, and Prometheus metrics on,
 * on a free METRICS_PORT; the others from bench/http-peers.mjs; each adapter's `requireAuth()` alone
 * against its own bare route is bench/adapters.bench.mjs); autocannon drives them from this
 * process with CONNECTIONS keep-alive connections, the servers on one core and this process on
 * another (cpu-affinity.mjs). Two more reference servers leave out the access
 * log, then the metrics too, to price each per-request component (bench/METHOD.md). Each contender gets a 1 s
 * warm-up and a SECONDS-long measurement per round, in interleaved rounds, and keeps its best.
 *
 * Needs PostgreSQL: BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres) is used
 * to create and drop a scratch database. BENCH_HTTP_SECONDS (default 4) and BENCH_HTTP_ROUNDS
 * (default 3) bound the run.
 *
 *   pnpm build && node bench/run.mjs http
 */
import autocannon from 'autocannon';
import { splitCores } from './cpu-affinity.mjs';
import { cpuMicros, startPeer } from './peer-servers.mjs';
import { pgliteFolder } from './pglite-folder.mjs';
import { assertMetricsCounted, mintKey, startAll, startReference, whoami } from './reference-servers.mjs';
import { createScratchDatabase } from './scratch-database.mjs';
import { LocalIdentityProvider } from '@drops/auth/testing';

const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 3);
const WARMUP_SECONDS = 1;
const CONNECTIONS = 32;
const GROUP = 'HTTP, loopback (autocannon)';

// The reference servers under target run with the defaults of `pnpm start`: access log at `info`,
// metrics on. Two more price the components: no access line (`warn`), then no metrics either.
const NO_ACCESS_LOG = { LOG_LEVEL: 'warn' };
const NO_METRICS = { LOG_LEVEL: 'warn', METRICS_PORT: 'off' };

/**
 * Requests per second answered 200 over `seconds`, and the server's CPU time per request (µs);
 * any other answer or error fails the bench. CPU per request holds much better than throughput
 * when other work shares the machine: contention stretches the wall clock, not the work a
 * request takes (bench/METHOD.md).
 */
async function measure(url, pid, authorization, seconds) {
  const before = cpuMicros(pid);
  const result = await loadResult(url, authorization, seconds);
  const rate = result['2xx'] / result.duration;
  return { rate, cpuPerRequest: (cpuMicros(pid) - before) / result['2xx'] };
}

async function load(url, authorization, seconds) {
  return (await loadResult(url, authorization, seconds))['2xx'];
}

async function loadResult(url, authorization, seconds) {
  const result = await autocannon({
    url: `${url}/whoami`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: authorization ? { authorization } : {},
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return result;
}

export async function run() {
  // Before anything is opened that a failure to pin would leave behind.
  const cores = splitCores();
  const idp = await LocalIdentityProvider.start({ audience: 'drops-bench' });
  const idToken = idp.mintIdToken({ sub: 'acct_bench' });
  const token = `Bearer ${idToken}`;
  const oidc = { AUTH_ISSUER: idp.issuer, AUTH_AUDIENCE: idp.audience, AUTH_JWKS_URL: idp.jwksUrl };
  const scratch = await createScratchDatabase('http');

  const procs = [];
  try {
    const started = await startAll(procs, [
      startPeer('node-http'),
      startPeer('express'),
      startPeer('express-shaped'),
      startPeer('oauth2-jwt-bearer', oidc),
      startReference('reference server, PGlite', { ...oidc, DATA_DIR: pgliteFolder() }),
      startReference('reference server, PostgreSQL', { ...oidc, DATABASE_URL: scratch.url }),
      startReference('reference server, PGlite, no access log', { ...oidc, DATA_DIR: pgliteFolder(), ...NO_ACCESS_LOG }),
      startReference('reference server, PGlite, no access log, no metrics', { ...oidc, DATA_DIR: pgliteFolder(), ...NO_METRICS }),
    ]);
    const [nodeHttp, bareExpress, shapedExpress, bearer, lite, postgres, liteQuiet, liteBare] = started;
    for (const p of procs) cores.pinServer(p.child.pid);
    const liteKey = `Bearer ${await mintKey(lite.url, idToken)}`;
    const pgKey = `Bearer ${await mintKey(postgres.url, idToken)}`;
    const quietKey = `Bearer ${await mintKey(liteQuiet.url, idToken)}`;
    const bareKey = `Bearer ${await mintKey(liteBare.url, idToken)}`;

    // Same answers everywhere before anything is timed.
    for (const [server, auth, credential] of [
      [lite, liteKey, 'api_key'],
      [lite, token, 'id_token'],
      [postgres, pgKey, 'api_key'],
      [postgres, token, 'id_token'],
      [liteQuiet, quietKey, 'api_key'],
      [liteBare, bareKey, 'api_key'],
      [bearer, token, 'id_token'],
    ]) {
      const body = await whoami(server.url, auth);
      if (body.credential !== credential) throw new Error(`${server.label}: ${JSON.stringify(body)}`);
    }
    await whoami(nodeHttp.url, liteKey);
    await whoami(bareExpress.url, liteKey);
    await whoami(shapedExpress.url, liteKey);

    const shaped = {
      name: 'bare Express 5 route, no auth, per-request properties declared',
      url: shapedExpress.url,
      pid: shapedExpress.child.pid,
      auth: liteKey,
    };
    // The routes without auth get the same request as the reference server's API key rows, the
    // header included (they ignore it): what is compared is what authenticating costs, not what
    // parsing one more header does.
    const contenders = [
      { name: 'floor: node:http, no auth', url: nodeHttp.url, pid: nodeHttp.child.pid, auth: liteKey },
      { name: 'bare Express 5 route, no auth', url: bareExpress.url, pid: bareExpress.child.pid, auth: liteKey, baseline: true },
      // The reference server declares per-request properties up front (bench/METHOD.md): the same
      // bare route with the same treatment. Its own stack against this route, like for like, is
      // like-for-like.bench.mjs.
      shaped,
      { name: 'express-oauth2-jwt-bearer, same token', url: bearer.url, pid: bearer.child.pid, auth: token },
      { name: 'reference /whoami, API key, PGlite', url: lite.url, pid: lite.child.pid, auth: liteKey, target: 0.85 },
      { name: 'reference /whoami, ID token, PGlite', url: lite.url, pid: lite.child.pid, auth: token, target: 0.8 },
      // Issue 13: the lease-coherent cache answers API keys from memory on PostgreSQL too.
      { name: 'reference /whoami, API key, PostgreSQL', url: postgres.url, pid: postgres.child.pid, auth: pgKey, target: 0.85 },
      { name: 'reference /whoami, ID token, PostgreSQL', url: postgres.url, pid: postgres.child.pid, auth: token, target: 0.8 },
      {
        name: 'reference /whoami, API key, PGlite, no access log (LOG_LEVEL=warn)',
        url: liteQuiet.url,
        pid: liteQuiet.child.pid,
        auth: quietKey,
      },
      { name: 'reference /whoami, API key, PGlite, no access log, no metrics', url: liteBare.url, pid: liteBare.child.pid, auth: bareKey },
    ];
    const best = contenders.map(() => 0);
    const leastCpu = contenders.map(() => Infinity);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, c] of contenders.entries()) {
        await load(c.url, c.auth, WARMUP_SECONDS);
        const { rate, cpuPerRequest } = await measure(c.url, c.pid, c.auth, SECONDS);
        if (process.env.BENCH_VERBOSE) {
          process.stderr.write(`  round ${round + 1}: ${c.name}: ${rate.toFixed(0)} req/s, ${cpuPerRequest.toFixed(1)} µs CPU/request\n`);
        }
        best[i] = Math.max(best[i], rate);
        leastCpu[i] = Math.min(leastCpu[i], cpuPerRequest);
      }
    }
    await assertMetricsCounted([lite, postgres, liteQuiet]);
    const baselineIndex = contenders.findIndex((c) => c.baseline);
    const baseline = best[baselineIndex];
    const throughput = contenders.map((c, i) => ({
      group: GROUP,
      name: c.name,
      opsPerSec: best[i],
      display: `${(best[i] / 1e3).toFixed(1)} k req/s`,
      ...(c.baseline ? {} : { ratio: best[i] / baseline, target: c.target }),
    }));
    // The same contenders by the server's CPU time per request (least of the rounds); ratio =
    // bare Express's CPU per request / this one's, so it reads like a throughput ratio.
    const cpuBaseline = leastCpu[baselineIndex];
    const cpu = contenders.map((c, i) => ({
      group: `${GROUP}, server CPU per request`,
      name: c.name,
      opsPerSec: 1e6 / leastCpu[i],
      display: `${leastCpu[i].toFixed(1)} µs CPU/req`,
      ...(c.baseline ? {} : { ratio: cpuBaseline / leastCpu[i] }),
    }));
    return [...throughput, ...cpu];
  } finally {
    cores.restore();
    await Promise.all(procs.map((p) => p.stop()));
    await idp.close();
    await scratch.drop();
  }
}
