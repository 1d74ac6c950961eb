/**
 * Each adapter against its own bare route: Express 5, Fastify 5, Koa 3 (+ @koa/router), Hono on
 * @hono/node-server, and NestJS 12 on its default platform (platform-express), each as
 * `GET /whoami` answering the same JSON, bare and behind the adapter (`requireAuth()`; NestJS:
 * `DropsAuthModule` and `DropsAuthGuard`) with an API key on the memory store, on in-memory
 * PGlite and on PostgreSQL, and with an ID token (bench/http-peers.mjs `<adapter>` and
 * `<adapter>-drops-auth`). The servers run from the packed packages installed with npm into a
 * project of their own (packed-install.mjs), as a user installs them; BENCH_ADAPTERS_FROM=workspace
 * runs them on the workspace's built dist instead (no packing; for a quick look).
 *
 * Figures are requests/s and server CPU per request (the server process's CPU time over the same
 * window, every thread). The servers run on one core and the load (autocannon, in this process)
 * on another (cpu-affinity.mjs). On a shared machine the load of other processes comes and goes within
 * seconds, so one adapter's servers are measured in short interleaved rounds where every
 * contender's round sits right next to a round of its own of the bare route, sent the same request
 * (the bare route ignores the Authorization header, but parses it like any other): `bare A`, then
 * `B bare`, the first of each pair alternating and the contenders' order rotating each round. Each
 * contender's ratio is the median over the rounds of its round divided by its bare round
 * (requests/s: contender / bare; CPU: bare / contender), and the rate column shows the
 * interquartile range of those paired ratios.
 * Target ≥ 0.9× with an API key (issue 40).
 *
 * Every answer is checked: before timing, status, `cache-control`, content type and the exact body
 * (the right account, credential and key id); while timing, autocannon compares every body with it
 * and any other body, non-2xx answer, error or timeout fails the bench. Needs PostgreSQL
 * (BENCH_POSTGRES_URL, see scratch-database.mjs). BENCH_ADAPTERS_SECONDS (per round, default 1),
 * BENCH_ADAPTERS_ROUNDS (default 7) and BENCH_ADAPTERS (default `express,fastify,koa,hono,nestjs`)
 * bound the run; BENCH_VERBOSE=1 prints every round.
 *
 *   pnpm build && node bench/run.mjs adapters
 */
import autocannon from 'autocannon';
import { keyIdOf } from '@drops/auth';
import { LocalIdentityProvider } from '@drops/auth/testing';
import { pairedSummary, quantile } from './measure.mjs';
import { splitCores } from './cpu-affinity.mjs';
import { packedPeersScript } from './packed-install.mjs';
import { cpuMicros, startPeer } from './peer-servers.mjs';
import { startAll } from './reference-servers.mjs';
import { createScratchDatabase } from './scratch-database.mjs';

const SECONDS = Number(process.env.BENCH_ADAPTERS_SECONDS ?? 1);
const ROUNDS = Number(process.env.BENCH_ADAPTERS_ROUNDS ?? 7);
const WARMUP_SECONDS = 1;
const ADAPTERS = (process.env.BENCH_ADAPTERS ?? 'express,fastify,koa,hono,nestjs').split(',');
const FROM = process.env.BENCH_ADAPTERS_FROM ?? 'packed';
const CONNECTIONS = 32;
const TARGET = 0.9;
const NAMES = {
  express: 'Express 5 + requireAuth()',
  fastify: 'Fastify 5 + requireAuth()',
  koa: 'Koa 3 + requireAuth()',
  hono: 'Hono (Node) + requireAuth()',
  nestjs: 'NestJS 12 (platform-express) + DropsAuthGuard',
};
/** What the adapter puts in front of the route, in the rows' names. */
const GUARD = { nestjs: 'DropsAuthGuard' };

const BARE_BODY = { accountId: 'acct_bench', credential: 'api_key', keyId: 'f'.repeat(64) };

/**
 * `GET /whoami` once: fails unless it is a 200 with `cache-control: no-store`, JSON, and exactly
 * `expected`. Resolves the body's text, which every answer while timing must match.
 */
async function checkAnswer(label, url, authorization, expected) {
  const res = await fetch(`${url}/whoami`, { headers: authorization ? { authorization } : {} });
  const text = await res.text();
  const problems = [
    res.status !== 200 && `status ${res.status}`,
    res.headers.get('cache-control') !== 'no-store' && `cache-control ${res.headers.get('cache-control')}`,
    !res.headers.get('content-type')?.startsWith('application/json') && `content-type ${res.headers.get('content-type')}`,
    text !== JSON.stringify(expected) && `body ${text}, expected ${JSON.stringify(expected)}`,
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`${label}: wrong answer: ${problems.join('; ')}`);
  return text;
}

/** Requests/s and server CPU µs per request over `seconds`; any answer but the expected body fails the bench. */
async function measure(c, seconds) {
  const before = cpuMicros(c.server.child.pid);
  const result = await autocannon({
    url: `${c.server.url}/whoami`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: c.auth ? { authorization: c.auth } : {},
    expectBody: c.body,
  });
  const cpu = cpuMicros(c.server.child.pid) - before;
  const bad = { 'non-2xx': result.non2xx, 'wrong bodies': result.mismatches, errors: result.errors, timeouts: result.timeouts };
  if (Object.values(bad).some((n) => n > 0) || result['2xx'] === 0) {
    throw new Error(
      `${c.label}: ${Object.entries(bad)
        .map(([what, n]) => `${n} ${what}`)
        .join(', ')} (${result['2xx']} right answers)`,
    );
  }
  return { rate: result['2xx'] / result.duration, cpu: cpu / result['2xx'] };
}

/** The interquartile range of `values` (times `scale`), as text. */
const spread = (values, digits, scale = 1) =>
  `${(quantile(values, 0.25) * scale).toFixed(digits)}–${(quantile(values, 0.75) * scale).toFixed(digits)}`;

/** The rows of one adapter: its bare route, then the adapter with each store and credential. */
async function measureAdapter(adapter, { oidc, databaseUrl, idToken, script, withNote, cores }) {
  const guard = GUARD[adapter] ?? 'requireAuth()';
  const procs = [];
  const began = Date.now();
  const log = (line) => process.env.BENCH_VERBOSE && process.stderr.write(`  ${adapter}${line}\n`);
  try {
    const start = (kind, env = {}) => startPeer(kind, { ...env, NODE_PATH: undefined }, { script });
    const [bareServer, memory, lite, postgres] = await startAll(procs, [
      start(adapter),
      start(`${adapter}-drops-auth`, { ...oidc, KEY_STORE: 'memory' }),
      start(`${adapter}-drops-auth`, oidc),
      start(`${adapter}-drops-auth`, { ...oidc, DATABASE_URL: databaseUrl }),
    ]);
    for (const p of procs) cores.pinServer(p.child.pid);
    const keyBody = (server) => ({ accountId: 'acct_bench', credential: 'api_key', keyId: keyIdOf(server.apiKey) });
    const contenders = [
      { name: `${guard}, API key, memory store`, server: memory, key: true, target: TARGET },
      { name: `${guard}, API key, PGlite`, server: lite, key: true, target: TARGET },
      { name: `${guard}, API key, PostgreSQL`, server: postgres, key: true, target: TARGET },
      {
        name: `${guard}, ID token`,
        server: lite,
        auth: `Bearer ${idToken}`,
        expected: { accountId: 'acct_bench', credential: 'id_token' },
        target: adapter === 'express' ? TARGET : undefined,
      },
    ].map((c) => (c.key ? { ...c, auth: `Bearer ${c.server.apiKey}`, expected: keyBody(c.server) } : c));
    // Checked and warmed up with the first contender's header; timed with each contender's own.
    const bare = { name: 'bare route, no auth', server: bareServer, expected: BARE_BODY, auth: contenders[0].auth };
    const all = [bare, ...contenders];
    for (const c of all) {
      c.label = `${adapter}: ${c.name}`;
      c.body = await checkAnswer(c.label, c.server.url, c.auth, c.expected);
      Object.assign(c, { rates: [], cpus: [], rateRatios: [], cpuRatios: [] });
    }
    log(`: servers up and answers checked in ${((Date.now() - began) / 1000).toFixed(1)} s`);
    for (const c of all) await measure(c, WARMUP_SECONDS);

    let round = 0;
    const slot = async (c, auth = c.auth) => {
      const m = await measure({ ...c, auth }, SECONDS);
      c.rates.push(m.rate);
      c.cpus.push(m.cpu);
      log(
        ` round ${round + 1}: ${c.name}${c === bare ? ` (${auth.length} character header)` : ''}: ${m.rate.toFixed(0)} req/s, ${m.cpu.toFixed(1)} µs CPU/request`,
      );
      return m;
    };
    for (; round < ROUNDS; round++) {
      // Every contender next to a round of the bare route sent the same request, its
      // Authorization header included (the bare route ignores it): the pair differs only in what
      // the adapter does. Which of the two goes first alternates, the contenders' order rotates.
      for (const c of contenders.map((_, i) => contenders[(i + round) % contenders.length])) {
        const [first, second] = round % 2 === 0 ? [bare, c] : [c, bare];
        const one = await slot(first, c.auth);
        const two = await slot(second, c.auth);
        const [mine, bareRound] = first === c ? [one, two] : [two, one];
        c.rateRatios.push(mine.rate / bareRound.rate);
        c.cpuRatios.push(bareRound.cpu / mine.cpu);
      }
    }

    log(`: measured in ${((Date.now() - began) / 1000).toFixed(1)} s in all`);
    const group = `${NAMES[adapter]} against its bare route`;
    const from = FROM === 'packed' ? 'the packed packages installed with npm' : "the workspace's built packages";
    const note = withNote
      ? `${from}; median of ${ROUNDS} rounds of ${SECONDS} s, each paired with a round of the bare route sent the same request; in brackets the interquartile range (of the paired ratios where there is a ratio)`
      : undefined;
    const rateRows = all.map((c) => {
      const row = { group, name: c.name, opsPerSec: quantile(c.rates, 0.5) };
      const rate = `${(row.opsPerSec / 1e3).toFixed(1)} k req/s`;
      if (c === bare) return { ...row, display: `${rate} (${spread(c.rates, 1, 1e-3)})`, ...(note && { note }) };
      return { ...row, display: `${rate} (ratio ${spread(c.rateRatios, 2)})`, ratio: pairedSummary(c.rateRatios).median, target: c.target };
    });
    const cpuRows = all.map((c) => {
      const cpu = quantile(c.cpus, 0.5);
      const row = { group: `${group}, server CPU per request`, name: c.name, opsPerSec: 1e6 / cpu };
      if (c === bare) return { ...row, display: `${cpu.toFixed(1)} µs CPU/req (${spread(c.cpus, 1)})` };
      return {
        ...row,
        display: `${cpu.toFixed(1)} µs CPU/req (ratio ${spread(c.cpuRatios, 2)})`,
        ratio: pairedSummary(c.cpuRatios).median,
      };
    });
    return [...rateRows, ...cpuRows];
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
  }
}

export async function run() {
  const unknown = ADAPTERS.filter((a) => !(a in NAMES));
  if (unknown.length > 0) throw new Error(`BENCH_ADAPTERS: unknown ${unknown.join(', ')} (known: ${Object.keys(NAMES).join(', ')})`);
  if (FROM !== 'packed' && FROM !== 'workspace') throw new Error(`BENCH_ADAPTERS_FROM: packed or workspace, not ${FROM}`);
  const packing = Date.now();
  const script = FROM === 'packed' ? await packedPeersScript() : undefined;
  if (script && process.env.BENCH_VERBOSE)
    process.stderr.write(`  packed and installed in ${((Date.now() - packing) / 1000).toFixed(1)} s\n`);
  // Before anything is opened that a failure to pin would leave behind; after the packing, which
  // has both cores.
  const cores = splitCores();
  const idp = await LocalIdentityProvider.start({ audience: 'drops-bench' });
  const idToken = idp.mintIdToken({ sub: 'acct_bench' });
  const oidc = { AUTH_ISSUER: idp.issuer, AUTH_AUDIENCE: idp.audience, AUTH_JWKS_URL: idp.jwksUrl };
  const scratch = await createScratchDatabase('adapters');
  try {
    const rows = [];
    for (const adapter of ADAPTERS) {
      // How the figures were taken goes once, under the first adapter's table.
      rows.push(
        ...(await measureAdapter(adapter, { oidc, databaseUrl: scratch.url, idToken, script, withNote: rows.length === 0, cores })),
      );
    }
    return rows;
  } finally {
    cores.restore();
    await idp.close();
    await scratch.drop();
  }
}
