/**
 * Each adapter against its own bare route: Express 5, Fastify 5, Koa 3 (+ @koa/router), Hono on
 * @hono/node-server, and NestJS 12 on its default platform (platform-express), each as
 * `GET /whoami` answering the same JSON, bare and behind the adapter (`requireAuth()`; NestJS:
 * `DropsAuthModule` and `DropsAuthGuard`) with an API key on the memory store, on PGlite (in a
 * folder: pglite-folder.mjs) and on PostgreSQL, and with an ID token (bench/http-peers.mjs
 * `<adapter>` and `<adapter>-drops-auth`). The servers run from the packed packages installed with
 * npm into a project of their own (packed-install.mjs), as a user installs them;
 * BENCH_ADAPTERS_FROM=workspace runs them on the workspace's built dist instead (no packing; for a
 * quick look).
 *
 * Figures are requests/s and server CPU per request (the server process's CPU time over the same
 * window, every thread). The servers run on one core and the load (wrk, a child of this process:
 * wrk.mjs says why not autocannon) on another (cpu-affinity.mjs). What `requireAuth()` costs is
 * measured inside one app: each drops variant also serves `GET /public`, the same answer without
 * drops auth, and each of the adapter's rounds is bracketed by two rounds of that route of the same
 * process, sent the same request (a bare route ignores the Authorization header, but parses it like
 * any other): two processes of one app differ by more (up to a quarter of their CPU per request, by
 * when and how V8 compiled them) than the library costs. For the same reason each app runs in
 * REPLICAS processes (BENCH_ADAPTERS_REPLICAS, default 3) and the rounds take them in turn. A
 * bracket whose two bare rounds disagree is measured again, each bracket follows one uncounted
 * round of both routes (measure.mjs `pairedRound`), and the pairs' order rotates each round. Each
 * row's ratio is the median over the rounds of its round divided by the mean of its bracket's
 * (requests/s: contender / bare; CPU: bare / contender), and the rate column shows the
 * interquartile range of those paired ratios.
 * Two rows per adapter are there to read the others by: the bare answer behind a middleware that
 * only goes on (what the framework charges for any middleware, drops auth or not), and the bare
 * route of the app on PGlite against an app without drops auth (each its own process: what loading
 * the library and its store costs an app's other routes).
 * Target ≥ 0.9× with an API key (issue 40).
 *
 * Every answer is checked: before timing, status, `cache-control`, content type and the exact body
 * (the right account, credential and key id); while timing, wrk compares every status and body with
 * it, and any other answer, error or timeout fails the bench. Needs `wrk` (apt-get install wrk) and
 * PostgreSQL (BENCH_POSTGRES_URL, see scratch-database.mjs). BENCH_ADAPTERS_SECONDS (whole seconds
 * per round, default 1), BENCH_ADAPTERS_ROUNDS (default 3 per replica) and BENCH_ADAPTERS (default
 * `express,fastify,koa,hono,nestjs`) bound the run; BENCH_VERBOSE=1 prints every round.
 *
 *   pnpm build && node bench/run.mjs adapters
 */
import { keyIdOf } from '@drops/auth';
import { LocalIdentityProvider } from '@drops/auth/testing';
import { BRACKET_RULE, bracketOf, pairedRound, pairedRows, pairedSeries } from './measure.mjs';
import { splitCores } from './cpu-affinity.mjs';
import { packedPeersScript } from './packed-install.mjs';
import { startPeer } from './peer-servers.mjs';
import { startAll } from './reference-servers.mjs';
import { createScratchDatabase } from './scratch-database.mjs';
import { assertWholeSeconds, measureWithWrk } from './wrk.mjs';

const SECONDS = Number(process.env.BENCH_ADAPTERS_SECONDS ?? 1);
const REPLICAS = Number(process.env.BENCH_ADAPTERS_REPLICAS ?? 3);
const ROUNDS = Number(process.env.BENCH_ADAPTERS_ROUNDS ?? 3 * REPLICAS);
const WARMUP_SECONDS = 2;
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
 * `GET <path>` once: fails unless it is a 200 with `cache-control: no-store`, JSON, and exactly
 * `expected`. Resolves the body's text, which every answer while timing must match.
 */
async function checkAnswer(label, url, authorization, expected) {
  const res = await fetch(url, { headers: authorization ? { authorization } : {} });
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

/** Requests/s and server CPU µs per request of one route over `seconds`; any answer but the expected body fails the bench. */
function measure(route, auth, seconds) {
  return measureWithWrk(route.server.child.pid, route.label, {
    url: route.url,
    connections: CONNECTIONS,
    seconds,
    authorization: auth,
    expectBody: route.body,
  });
}

/**
 * The rows of one adapter: the adapter with each store and credential, each against the bare
 * route of its own app (`GET /public`, no auth, in the same process); then that bare route of the
 * app on PGlite against an app without drops auth, a process of its own.
 */
async function measureAdapter(adapter, { oidc, databaseUrl, idToken, script, withNote, cores }) {
  const guard = GUARD[adapter] ?? 'requireAuth()';
  const procs = [];
  const began = Date.now();
  const log = (line) => process.env.BENCH_VERBOSE && process.stderr.write(`  ${adapter}${line}\n`);
  try {
    const start = (kind, env = {}) => startPeer(kind, { ...env, NODE_PATH: undefined }, { script });
    // The stores the adapter's app runs on, each in REPLICAS processes.
    const stores = [
      { name: 'memory store', where: 'the memory store', env: { KEY_STORE: 'memory' } },
      { name: 'PGlite', where: 'PGlite', env: {} },
      { name: 'PostgreSQL', where: 'PostgreSQL', env: { DATABASE_URL: databaseUrl } },
    ];
    const [bareServer, ...appServers] = await startAll(procs, [
      start(adapter),
      ...stores.flatMap((store) => Array.from({ length: REPLICAS }, () => start(`${adapter}-drops-auth`, { ...oidc, ...store.env }))),
    ]);
    for (const p of procs) cores.pinServer(p.child.pid);
    const route = (server, path, expected, auth, what) => ({ server, url: `${server.url}${path}`, expected, auth, what });
    // Each process's routes, made once: the bare route, the middleware that only goes on, and
    // `/whoami` with the app's API key and with the ID token.
    const apps = stores.map((store, k) =>
      appServers.slice(k * REPLICAS, (k + 1) * REPLICAS).map((server) => {
        const [what, key] = [`an app on ${store.where}`, `Bearer ${server.apiKey}`];
        return {
          bare: route(server, '/public', BARE_BODY, key, what),
          passed: route(server, '/passed', BARE_BODY, key, what),
          key: route(server, '/whoami', { accountId: 'acct_bench', credential: 'api_key', keyId: keyIdOf(server.apiKey) }, key, what),
          token: route(server, '/whoami', { accountId: 'acct_bench', credential: 'id_token' }, `Bearer ${idToken}`, what),
        };
      }),
    );
    const onPGlite = apps[stores.findIndex((store) => store.name === 'PGlite')];
    const appWithout = route(bareServer, '/whoami', BARE_BODY, onPGlite[0].key.auth, 'an app without drops auth');
    // Each pair, in each process of its app: `mine` and the route it is compared with, both sent
    // `mine`'s request.
    const pairs = [
      ...stores.map((store, k) => ({
        name: `${guard}, API key, ${store.name}`,
        target: TARGET,
        of: apps[k].map((app) => ({ mine: app.key, base: app.bare })),
      })),
      {
        name: `${guard}, ID token`,
        target: adapter === 'express' ? TARGET : undefined,
        of: onPGlite.map((app) => ({ mine: app.token, base: app.bare })),
      },
      {
        name: `a ${adapter === 'nestjs' ? 'guard' : 'middleware'} that only goes on, on the app with ${guard} on PGlite`,
        of: onPGlite.map((app) => ({ mine: app.passed, base: app.bare })),
      },
      {
        name: `bare route of the app with ${guard} on PGlite, against an app without drops auth`,
        of: onPGlite.map((app) => ({ mine: app.bare, base: appWithout })),
      },
    ].map((p) => ({ ...p, ...pairedSeries() }));
    const routes = [...new Set(pairs.flatMap((p) => p.of.flatMap((one) => [one.mine, one.base])))];
    for (const r of routes) {
      r.label = `${adapter}: ${r.url.replace(/^http:\/\/[^/]+/, '')} of ${r.what}`;
      r.body = await checkAnswer(r.label, r.url, r.auth, r.expected);
    }
    log(`: servers up and answers checked in ${((Date.now() - began) / 1000).toFixed(1)} s`);
    // A new process takes several seconds under load before its code is compiled: each route is
    // loaded WARMUP_SECONDS before any round counts.
    for (const r of routes) await measure(r, r.auth, WARMUP_SECONDS);

    for (let round = 0; round < ROUNDS; round++) {
      // A pair's rounds differ only in the route: the same request, its Authorization header
      // included (a bare route ignores it). Each round brackets the route between two rounds of
      // its pair (measure.mjs), and the pairs' order rotates.
      for (const p of pairs.map((_, i) => pairs[(i + round) % pairs.length])) {
        const replica = p.of[round % REPLICAS];
        const { mine, base, ...bracket } = await pairedRound(p, replica, (route) => measure(route, replica.mine.auth, SECONDS));
        log(
          ` round ${round + 1} (replica ${(round % REPLICAS) + 1}): ${p.name}: ${mine.rate.toFixed(0)} req/s, ${mine.cpu.toFixed(1)} µs CPU/request; against ${base.rate.toFixed(0)} req/s, ${base.cpu.toFixed(1)} µs (${bracketOf(bracket)})`,
        );
      }
    }

    log(`: measured in ${((Date.now() - began) / 1000).toFixed(1)} s in all`);
    const group = `${NAMES[adapter]} against its bare route`;
    const from = FROM === 'packed' ? 'the packed packages installed with npm' : "the workspace's built packages";
    const note = withNote
      ? `${from}; each row against the bare route of its own app (\`GET /public\`, no auth, in the same process) unless it says otherwise; median of ${ROUNDS} rounds of ${SECONDS} s over ${REPLICAS} processes of each app, each between two rounds of that route sent the same request (${BRACKET_RULE}); in brackets that route's median, the interquartile range of the paired ratios, and how many brackets were measured again`
      : undefined;
    const rows = pairs.map((p) => pairedRows(group, p.name, p));
    const rateRows = rows.map(({ rate }, i) => ({ ...rate, target: pairs[i].target, ...(i === 0 && note ? { note } : {}) }));
    const cpuRows = rows.map(({ cpu }) => cpu);
    return [...rateRows, ...cpuRows];
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
  }
}

export async function run() {
  assertWholeSeconds('BENCH_ADAPTERS_SECONDS', SECONDS);
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
