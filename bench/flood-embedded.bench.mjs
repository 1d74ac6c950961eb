/**
 * A random-key flood against the embedded default: Fastify 5 + `requireAuth()` of
 * @drops/auth-fastify on PGlite (bench/http-peers.mjs `fastify-drops-auth`), one
 * process. Each request of the flood carries a new well-formed `hp_` key nobody minted (what a
 * guesser sends) and must be answered the uniform 401; the same server's requests/s and CPU per
 * request with its one valid key are the baseline. Ratio = flood / valid key (target ≥ 0.8: an
 * unknown key costs about what a known one does, so no client slows the server down by guessing).
 *
 * Interleaved rounds of a 1 s warm-up and SECONDS each, CONNECTIONS keep-alive connections; each
 * contender keeps its best round. BENCH_FLOOD_EMBEDDED_SECONDS (default 4, whole seconds) and
 * BENCH_FLOOD_EMBEDDED_ROUNDS (default 3) bound the run. The load is wrk on one core, the server on
 * the other (wrk.mjs says why not autocannon); wrk makes each random key in its Lua `request`
 * hook (wrk-check.lua) and checks every answer's status and body. Before the flood, the same wrk
 * run against a server in this process checks that its keys are well-formed and never repeat.
 * Needs `wrk` (apt-get install wrk).
 *
 *   pnpm build && node bench/run.mjs flood-embedded
 */
import { createServer } from 'node:http';
import { isApiKeyFormat } from '@drops/auth';
import { LocalIdentityProvider } from '@drops/auth/testing';
import { splitCores } from './cpu-affinity.mjs';
import { startPeer } from './peer-servers.mjs';
import { startAll } from './reference-servers.mjs';
import { assertWholeSeconds, measureWithWrk, wrk } from './wrk.mjs';

const SECONDS = Number(process.env.BENCH_FLOOD_EMBEDDED_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_FLOOD_EMBEDDED_ROUNDS ?? 3);
const CONNECTIONS = 32;
const GROUP = 'random-key flood, Fastify 5 + requireAuth() on PGlite';

/** Requests/s and server CPU µs per request over `seconds`; every answer must be `status` with exactly `body`. */
function measure(server, contender, seconds) {
  return measureWithWrk(server.child.pid, contender.name, {
    url: `${server.url}/whoami`,
    connections: CONNECTIONS,
    seconds,
    authorization: contender.authorization,
    randomKeys: contender.randomKeys,
    expectStatus: contender.status,
    expectBody: contender.body,
  });
}

/**
 * One second of wrk's random keys against a server here that reads each: fails unless every one
 * is a well-formed API key (`isApiKeyFormat`) and none came twice.
 */
async function checkRandomKeys() {
  const seen = new Set();
  let bad = 0;
  const checker = createServer((req, res) => {
    const secret = req.headers.authorization?.slice('Bearer '.length) ?? '';
    if (!isApiKeyFormat(secret) || seen.has(secret)) bad++;
    seen.add(secret);
    res.end('checked');
  });
  await new Promise((resolve) => checker.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${checker.address().port}/`;
    await wrk({ url, connections: CONNECTIONS, seconds: 1, randomKeys: true, expectBody: 'checked' });
  } finally {
    checker.closeAllConnections();
    await new Promise((resolve) => checker.close(resolve));
  }
  if (bad > 0 || seen.size < 1000) throw new Error(`wrk's random keys: ${bad} ill-formed or repeated of ${seen.size}`);
}

export async function run() {
  assertWholeSeconds('BENCH_FLOOD_EMBEDDED_SECONDS', SECONDS);
  const cores = splitCores();
  const idp = await LocalIdentityProvider.start({ audience: 'drops-bench' });
  const oidc = { AUTH_ISSUER: idp.issuer, AUTH_AUDIENCE: idp.audience, AUTH_JWKS_URL: idp.jwksUrl };
  const procs = [];
  try {
    await checkRandomKeys();
    const [server] = await startAll(procs, [startPeer('fastify-drops-auth', oidc)]);
    cores.pinServer(server.child.pid);
    const valid = `Bearer ${server.apiKey}`;
    const url = `${server.url}/whoami`;
    const contenders = [
      { name: 'valid API key (baseline)', authorization: valid, status: 200, body: await answerTo(url, valid, 200) },
      {
        name: 'random well-formed keys, each new (uniform 401)',
        randomKeys: true,
        status: 401,
        body: await answerTo(url, `Bearer hp_${'A'.repeat(43)}`, 401),
      },
    ].map((c) => ({ ...c, rate: 0, cpu: Infinity }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of contenders) {
        await measure(server, c, 1);
        const { rate, cpu } = await measure(server, c, SECONDS);
        if (process.env.BENCH_VERBOSE)
          process.stderr.write(`  round ${round + 1}: ${c.name}: ${rate.toFixed(0)} req/s, ${cpu.toFixed(1)} µs CPU/request\n`);
        c.rate = Math.max(c.rate, rate);
        c.cpu = Math.min(c.cpu, cpu);
      }
    }
    const [baseline, flood] = contenders;
    return [
      ...contenders.map((c) => ({
        group: GROUP,
        name: c.name,
        opsPerSec: c.rate,
        display: `${(c.rate / 1e3).toFixed(1)} k req/s`,
        ...(c === baseline ? {} : { ratio: c.rate / baseline.rate, target: 0.8 }),
      })),
      ...contenders.map((c) => ({
        group: `${GROUP}, server CPU per request`,
        name: c.name,
        opsPerSec: 1e6 / c.cpu,
        display: `${c.cpu.toFixed(1)} µs CPU/req`,
        ...(c === baseline ? {} : { ratio: baseline.cpu / flood.cpu }),
      })),
    ];
  } finally {
    cores.restore();
    await Promise.all(procs.map((p) => p.stop()));
    await idp.close();
  }
}

/** The body of `GET url` with `authorization`, which must answer `status`: every answer while timing must match it. */
async function answerTo(url, authorization, status) {
  const res = await fetch(url, { headers: { authorization } });
  const body = await res.text();
  if (res.status !== status) throw new Error(`${url}: expected ${status}, got ${res.status} ${body}`);
  return body;
}
