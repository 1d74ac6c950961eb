/**
 * A random-key flood against the embedded default: Fastify 5 + `requireAuth()` of
 * @drops/auth-fastify on in-memory PGlite (bench/http-peers.mjs `fastify-drops-auth`), one
 * process. Each request of the flood carries a new well-formed `hp_` key nobody minted (what a
 * guesser sends) and must be answered the uniform 401; the same server's requests/s and CPU per
 * request with its one valid key are the baseline. Ratio = flood / valid key (target ≥ 0.8: an
 * unknown key costs about what a known one does, so no client slows the server down by guessing).
 *
 * Interleaved rounds of a 1 s warm-up and SECONDS each, CONNECTIONS keep-alive connections; each
 * contender keeps its best round. BENCH_FLOOD_EMBEDDED_SECONDS (default 4) and
 * BENCH_FLOOD_EMBEDDED_ROUNDS (default 3) bound the run.
 *
 *   pnpm build && node bench/run.mjs flood-embedded
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { LocalIdentityProvider } from '@drops/auth/testing';
import { cpuMicros, startPeer } from './peer-servers.mjs';
import { startAll } from './reference-servers.mjs';

const SECONDS = Number(process.env.BENCH_FLOOD_EMBEDDED_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_FLOOD_EMBEDDED_ROUNDS ?? 3);
const CONNECTIONS = 32;
const GROUP = 'random-key flood, Fastify 5 + requireAuth() on PGlite';

const randomKey = () => `hp_${randomBytes(32).toString('base64url')}`;

/** Requests/s and server CPU µs per request over `seconds`; every answer must be `status`. */
async function measure(server, authorization, status, seconds) {
  const before = cpuMicros(server.child.pid);
  const result = await autocannon({
    url: `${server.url}/whoami`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ setupRequest: (req) => ({ ...req, headers: { authorization: authorization() } }) }],
  });
  const answered = result.statusCodeStats?.[String(status)]?.count ?? 0;
  const total = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
  if (answered !== total || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`expected only ${status}: ${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors`);
  }
  return { rate: total / result.duration, cpu: (cpuMicros(server.child.pid) - before) / total };
}

export async function run() {
  const idp = await LocalIdentityProvider.start({ audience: 'drops-bench' });
  const oidc = { AUTH_ISSUER: idp.issuer, AUTH_AUDIENCE: idp.audience, AUTH_JWKS_URL: idp.jwksUrl };
  const procs = [];
  try {
    const [server] = await startAll(procs, [startPeer('fastify-drops-auth', oidc)]);
    const valid = `Bearer ${server.apiKey}`;
    const contenders = [
      { name: 'valid API key (baseline)', authorization: () => valid, status: 200 },
      { name: 'random well-formed keys, each new (uniform 401)', authorization: () => `Bearer ${randomKey()}`, status: 401 },
    ].map((c) => ({ ...c, rate: 0, cpu: Infinity }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of contenders) {
        await measure(server, c.authorization, c.status, 1);
        const { rate, cpu } = await measure(server, c.authorization, c.status, SECONDS);
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
    await Promise.all(procs.map((p) => p.stop()));
    await idp.close();
  }
}
