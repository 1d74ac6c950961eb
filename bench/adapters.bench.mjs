/**
 * Each adapter's `requireAuth()` against its own bare route: Express 5, Fastify 5, Koa 3 (+
 * @koa/router) and Hono on @hono/node-server, each as `GET /whoami` answering the same JSON, with
 * an API key on the memory store, on in-memory PGlite and on PostgreSQL, and with an ID token
 * (bench/http-peers.mjs `<adapter>` and `<adapter>-drops-auth`; the adapters from their built
 * dist, as a user installs them). Ratio = the bare route's figure / this one's: requests/s, and
 * server CPU per request (which holds better on a shared machine: contention stretches the wall
 * clock, not the work a request takes). Target ≥ 0.9× with an API key (issue 40).
 *
 * One adapter at a time: its five servers, each its own process, interleaved rounds of a 1 s
 * warm-up and SECONDS of autocannon with CONNECTIONS keep-alive connections; each keeps its best.
 * Needs PostgreSQL (BENCH_POSTGRES_URL, see scratch-database.mjs). BENCH_ADAPTERS_SECONDS (default
 * 3), BENCH_ADAPTERS_ROUNDS (default 3) and BENCH_ADAPTERS (default `express,fastify,koa,hono`)
 * bound the run. NestJS is not measured yet.
 *
 *   pnpm build && node bench/run.mjs adapters
 */
import autocannon from 'autocannon';
import { LocalIdentityProvider } from '@drops/auth/testing';
import { cpuMicros, startPeer } from './peer-servers.mjs';
import { startAll, whoami } from './reference-servers.mjs';
import { createScratchDatabase } from './scratch-database.mjs';

const SECONDS = Number(process.env.BENCH_ADAPTERS_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ADAPTERS_ROUNDS ?? 3);
const ADAPTERS = (process.env.BENCH_ADAPTERS ?? 'express,fastify,koa,hono').split(',');
const CONNECTIONS = 32;
const TARGET = 0.9;
const NAMES = { express: 'Express 5', fastify: 'Fastify 5', koa: 'Koa 3', hono: 'Hono (Node)' };

/** Requests/s answered 200 and server CPU µs per request over `seconds`; anything else fails the bench. */
async function measure(server, authorization, seconds) {
  const before = cpuMicros(server.child.pid);
  const result = await autocannon({
    url: `${server.url}/whoami`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: authorization ? { authorization } : {},
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${server.label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return { rate: result['2xx'] / result.duration, cpu: (cpuMicros(server.child.pid) - before) / result['2xx'] };
}

/** The rows of one adapter: its bare route, then requireAuth() with each store and credential. */
async function measureAdapter(adapter, oidc, databaseUrl, idToken) {
  const procs = [];
  try {
    const [bare, memory, lite, postgres] = await startAll(procs, [
      startPeer(adapter),
      startPeer(`${adapter}-drops-auth`, { ...oidc, KEY_STORE: 'memory' }),
      startPeer(`${adapter}-drops-auth`, oidc),
      startPeer(`${adapter}-drops-auth`, { ...oidc, DATABASE_URL: databaseUrl }),
    ]);
    const contenders = [
      { name: 'bare route, no auth', server: bare },
      { name: 'requireAuth(), API key, memory store', server: memory, auth: `Bearer ${memory.apiKey}`, target: TARGET },
      { name: 'requireAuth(), API key, PGlite', server: lite, auth: `Bearer ${lite.apiKey}`, target: TARGET },
      { name: 'requireAuth(), API key, PostgreSQL', server: postgres, auth: `Bearer ${postgres.apiKey}`, target: TARGET },
      { name: 'requireAuth(), ID token', server: lite, auth: `Bearer ${idToken}`, target: adapter === 'express' ? TARGET : undefined },
    ].map((c) => ({ ...c, rate: 0, cpu: Infinity }));
    for (const c of contenders.slice(1)) {
      const body = await whoami(c.server.url, c.auth);
      if (body.accountId === undefined) throw new Error(`${adapter}: ${c.name}: ${JSON.stringify(body)}`);
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of contenders) {
        await measure(c.server, c.auth, 1);
        const { rate, cpu } = await measure(c.server, c.auth, SECONDS);
        if (process.env.BENCH_VERBOSE) {
          process.stderr.write(`  ${adapter} round ${round + 1}: ${c.name}: ${rate.toFixed(0)} req/s, ${cpu.toFixed(1)} µs CPU/request\n`);
        }
        c.rate = Math.max(c.rate, rate);
        c.cpu = Math.min(c.cpu, cpu);
      }
    }
    const [baseline] = contenders;
    const group = `${NAMES[adapter]} + requireAuth() against its bare route`;
    return [
      ...contenders.map((c) => ({
        group,
        name: c.name,
        opsPerSec: c.rate,
        display: `${(c.rate / 1e3).toFixed(1)} k req/s`,
        ...(c === baseline ? {} : { ratio: c.rate / baseline.rate, target: c.target }),
      })),
      ...contenders.map((c) => ({
        group: `${group}, server CPU per request`,
        name: c.name,
        opsPerSec: 1e6 / c.cpu,
        display: `${c.cpu.toFixed(1)} µs CPU/req`,
        ...(c === baseline ? {} : { ratio: baseline.cpu / c.cpu }),
      })),
    ];
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
  }
}

export async function run() {
  const idp = await LocalIdentityProvider.start({ audience: 'drops-bench' });
  const idToken = idp.mintIdToken({ sub: 'acct_bench' });
  const oidc = { AUTH_ISSUER: idp.issuer, AUTH_AUDIENCE: idp.audience, AUTH_JWKS_URL: idp.jwksUrl };
  const scratch = await createScratchDatabase('adapters');
  try {
    const rows = [];
    for (const adapter of ADAPTERS) rows.push(...(await measureAdapter(adapter, oidc, scratch.url, idToken)));
    return rows;
  } finally {
    await idp.close();
    await scratch.drop();
  }
}
