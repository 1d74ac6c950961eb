/**
 * The reference server's own stack, like for like (issue 40: at least 0.85×): its `GET /whoami` as
 * `pnpm start` runs it (request id, access line at `info`, metrics, authentication), with an API
 * key and with an ID token, on embedded PGlite (in a folder, as `pnpm start` keeps `.data`;
 * pglite-folder.mjs) and on PostgreSQL, against the bare Express 5 route on a server that declares
 * Express's per-request properties up front as the reference server does (bench/http-peers.mjs
 * `express-shaped`, sent the same request: it ignores the header).
 *
 * The two sides are different programs, so they cannot share a process as the adapters bench's
 * pairs do, and two processes of one program differ by up to a fifth of their CPU per request (by
 * when and how V8 compiled them; bench/METHOD.md). So each side runs in REPLICAS processes
 * (BENCH_LIKE_REPLICAS, default 3), and the rounds take them in turn: each round measures one
 * reference process between two rounds of one `express-shaped` process, with wrk on one core and
 * the servers on the other (wrk.mjs, cpu-affinity.mjs); a bracket whose two bare rounds disagree is
 * measured again (measure.mjs `pairedRound`). Every route is first loaded until its CPU per
 * request settles (measure.mjs `warmUp`: the reference server, the larger program, takes longer),
 * and each bracket follows one uncounted round of both routes (a process that idled has had code
 * thrown away). Each row's ratio is the median of the rounds' paired ratios (requests/s:
 * reference / bare; CPU per request: bare / reference), and the rate column shows their
 * interquartile range.
 * Every answer is checked against the server's own first answer (status and exact body).
 *
 * Needs wrk and PostgreSQL (BENCH_POSTGRES_URL, see scratch-database.mjs). BENCH_LIKE_SECONDS
 * (whole seconds per round, default 2) and BENCH_LIKE_ROUNDS (default 3 per replica) bound the
 * run; BENCH_VERBOSE=1 prints every round.
 *
 *   pnpm build && node bench/run.mjs like-for-like
 */
import { LocalIdentityProvider } from '@drops/auth/testing';
import { splitCores } from './cpu-affinity.mjs';
import { BRACKET_RULE, bracketOf, pairedRound, pairedRows, pairedSeries, WARMUP_RULE, warmUp } from './measure.mjs';
import { pgliteFolder } from './pglite-folder.mjs';
import { startPeer } from './peer-servers.mjs';
import { assertMetricsCounted, mintKey, startAll, startReference } from './reference-servers.mjs';
import { createScratchDatabase } from './scratch-database.mjs';
import { assertWholeSeconds, measureWithWrk } from './wrk.mjs';

const SECONDS = Number(process.env.BENCH_LIKE_SECONDS ?? 2);
const REPLICAS = Number(process.env.BENCH_LIKE_REPLICAS ?? 3);
const ROUNDS = Number(process.env.BENCH_LIKE_ROUNDS ?? 3 * REPLICAS);
const CONNECTIONS = 32;
const TARGET = 0.85;
const GROUP = 'The reference server like for like (its whole stack against the bare route with per-request properties declared)';

/** `GET /whoami` once with `authorization`: its body text, which every answer while timing must match. */
async function firstAnswer(label, url, authorization) {
  const res = await fetch(`${url}/whoami`, { headers: { authorization } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${label}: GET /whoami answered ${res.status}: ${text}`);
  return text;
}

export async function run() {
  assertWholeSeconds('BENCH_LIKE_SECONDS', SECONDS);
  const cores = splitCores();
  const idp = await LocalIdentityProvider.start({ audience: 'drops-bench' });
  const idToken = idp.mintIdToken({ sub: 'acct_bench' });
  const oidc = { AUTH_ISSUER: idp.issuer, AUTH_AUDIENCE: idp.audience, AUTH_JWKS_URL: idp.jwksUrl };
  const scratch = await createScratchDatabase('like');
  const procs = [];
  const log = (line) => process.env.BENCH_VERBOSE && process.stderr.write(`  like for like: ${line}\n`);
  try {
    const replicas = Array.from({ length: REPLICAS }, (_, i) => i);
    const started = await startAll(procs, [
      ...replicas.map((i) => startPeer('express-shaped', oidc).then((p) => ({ ...p, label: `express-shaped ${i + 1}` }))),
      ...replicas.map((i) => startReference(`reference, PGlite ${i + 1}`, { ...oidc, DATA_DIR: pgliteFolder() })),
      // Several instances on one PostgreSQL, as the reference server scales out.
      ...replicas.map((i) => startReference(`reference, PostgreSQL ${i + 1}`, { ...oidc, DATABASE_URL: scratch.url })),
    ]);
    for (const p of procs) cores.pinServer(p.child.pid);
    const [shaped, lite, postgres] = [0, 1, 2].map((k) => started.slice(k * REPLICAS, (k + 1) * REPLICAS));
    const token = `Bearer ${idToken}`;
    /** One route of one process: what wrk sends it and the body it must answer. */
    const route = async (server, authorization) => ({
      server,
      authorization,
      body: await firstAnswer(server.label, server.url, authorization),
    });
    const pairsOf = async (servers, credential) =>
      Promise.all(
        servers.map(async (server, i) => {
          const authorization = credential === 'key' ? `Bearer ${await mintKey(server.url, idToken)}` : token;
          return { mine: await route(server, authorization), base: await route(shaped[i], authorization) };
        }),
      );
    const rows = [
      { name: 'reference /whoami, API key, PGlite', of: await pairsOf(lite, 'key') },
      { name: 'reference /whoami, ID token, PGlite', of: await pairsOf(lite, 'token') },
      { name: 'reference /whoami, API key, PostgreSQL', of: await pairsOf(postgres, 'key') },
      { name: 'reference /whoami, ID token, PostgreSQL', of: await pairsOf(postgres, 'token') },
    ].map((row) => ({ ...row, ...pairedSeries() }));

    const measure = ({ server, authorization, body }, seconds) =>
      measureWithWrk(server.child.pid, server.label, {
        url: `${server.url}/whoami`,
        connections: CONNECTIONS,
        seconds,
        authorization,
        expectBody: body,
      });
    // A new process takes seconds under load before its code is compiled: every route is loaded
    // until it settles before any round counts.
    for (const row of rows)
      for (const { mine, base } of row.of)
        for (const r of [mine, base]) {
          const { rounds, cpu } = await warmUp(r, measure);
          log(`warm-up: ${r.server.label}, ${row.name}: ${rounds} rounds, settled at ${cpu.toFixed(1)} µs CPU/request`);
        }

    for (let round = 0; round < ROUNDS; round++) {
      for (const row of rows.map((_, i) => rows[(i + round) % rows.length])) {
        const { mine, base, ...bracket } = await pairedRound(row, row.of[round % REPLICAS], (route) => measure(route, SECONDS));
        log(
          `round ${round + 1} (processes ${(round % REPLICAS) + 1}): ${row.name}: ${mine.rate.toFixed(0)} req/s, ${mine.cpu.toFixed(1)} µs CPU/request; bare ${base.rate.toFixed(0)} req/s, ${base.cpu.toFixed(1)} µs (${bracketOf(bracket)})`,
        );
      }
    }
    await assertMetricsCounted([...lite, ...postgres]);

    const note = `${WARMUP_RULE}; median of ${ROUNDS} rounds of ${SECONDS} s, over ${REPLICAS} processes of each server in turn (the reference server as \`pnpm start\` runs it; the bare route with per-request properties declared, sent the same request), each round between two rounds of the bare route (${BRACKET_RULE}); in brackets the bare route's median, the interquartile range of the paired ratios, and how many brackets were measured again`;
    const paired = rows.map((row) => pairedRows(GROUP, row.name, row));
    const rateRows = paired.map(({ rate }, i) => ({ ...rate, target: TARGET, ...(i === 0 ? { note } : {}) }));
    const cpuRows = paired.map(({ cpu }) => cpu);
    return [...rateRows, ...cpuRows];
  } finally {
    cores.restore();
    await Promise.all(procs.map((p) => p.stop()));
    await idp.close();
    await scratch.drop();
  }
}
