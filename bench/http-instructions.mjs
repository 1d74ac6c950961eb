/**
 * User-space instructions per request of one bench/http-peers.mjs server under load, counted by
 * valgrind's callgrind: the same count whatever else the machine is doing, so a before/after or
 * an adapter against its bare route can be compared on a loaded machine, where requests/s and even
 * CPU per request swing by a third between rounds. It leaves out the kernel's share (the `writev`
 * and `read` of each request, the same for every server: one of each per request).
 *
 * The server runs under `valgrind --tool=callgrind --instr-atstart=no`: WARM requests (default
 * 8 000) from autocannon with 8 connections let V8 compile the hot path, then `callgrind_control
 * -i on`, COUNT requests, `-i off`, a dump, and the total divided by COUNT. About a minute a run.
 *
 *   pnpm build
 *   node bench/http-instructions.mjs fastify memory none        # bare Fastify 5
 *   node bench/http-instructions.mjs fastify-drops-auth memory key
 *   node bench/http-instructions.mjs fastify-drops-auth pglite flood
 *
 * Arguments: a kind of bench/http-peers.mjs; the store (`memory`, `pglite` or `pg`: BENCH_POSTGRES_URL,
 * default the `test` database); the credential (`none`, `key`, `token`, or `flood`: a new random
 * well-formed key per request); COUNT (default 8 000). ROUTE=/public counts the route of the same
 * process without drops auth (sent the same header): an adapter against its bare route is two runs
 * of one kind, `/whoami` and `/public`, as bench/adapters.bench.mjs pairs them. PEERS=path runs
 * another checkout's http-peers.mjs (after its own `pnpm build`), for a before/after.
 *
 * The stores write a key's last use at most once a minute; a run lasts about a minute, so that
 * write (an `UPDATE` in PGlite's WebAssembly: tens of millions of instructions) would fall into
 * some counted windows and not others. The server is started with it once an hour instead.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { LocalIdentityProvider } from '@drops/auth/testing';
import { pgliteFolder } from './pglite-folder.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const [kind, store = 'memory', credential = 'key', countArg = '8000'] = process.argv.slice(2);
if (kind === undefined) {
  process.stderr.write('usage: node bench/http-instructions.mjs KIND [memory|pglite|pg] [none|key|token|flood] [COUNT]\n');
  process.exit(2);
}
const COUNT = Number(countArg);
const WARM = Number(process.env.WARM ?? 8000);
const ROUTE = process.env.ROUTE ?? '/whoami';

const idp = await LocalIdentityProvider.start({ audience: 'drops-bench' });
const env = { ...process.env, AUTH_ISSUER: idp.issuer, AUTH_AUDIENCE: idp.audience, AUTH_JWKS_URL: idp.jwksUrl };
// valgrind names its control pipes after HOST: callgrind_control (run without it) must find them.
delete env.HOST;
if (store === 'memory') env.KEY_STORE = 'memory';
env.MIN_USE_INTERVAL_MS = String(3_600_000);
// A folder this process removes when it exits: the server ends by SIGKILL, before its own clean-up.
if (store === 'pglite') env.BENCH_PGLITE_DIR = pgliteFolder();
if (store === 'pg') env.DATABASE_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const dir = mkdtempSync(join(tmpdir(), 'drops-instructions-'));
const child = spawn(
  'valgrind',
  [
    '--tool=callgrind',
    '--instr-atstart=no',
    `--callgrind-out-file=${dir}/callgrind.out`,
    process.execPath,
    process.env.PEERS ?? join(here, 'http-peers.mjs'),
    kind,
  ],
  { env, stdio: ['ignore', 'pipe', 'pipe'] },
);
let stderr = '';
child.stderr.on('data', (chunk) => {
  stderr += chunk;
});
try {
  const line = await new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => resolve(String(chunk)));
    child.once('exit', () => reject(new Error(`${kind} exited: ${stderr.slice(-2000)}`)));
  });
  const url = line.slice(0, line.indexOf(' '));
  const { apiKey } = JSON.parse(line.slice(line.indexOf(' ') + 1));
  const idToken = idp.mintIdToken({ sub: 'acct_bench' });
  const fixed = { key: `Bearer ${apiKey}`, token: `Bearer ${idToken}`, none: undefined }[credential];
  const load = async (amount) => {
    const options = { url: `${url}${ROUTE}`, connections: 8, amount, timeout: 120 };
    if (credential === 'flood') {
      options.requests = [
        { setupRequest: (req) => ({ ...req, headers: { authorization: `Bearer hp_${randomBytes(32).toString('base64url')}` } }) },
      ];
    } else if (fixed !== undefined) options.headers = { authorization: fixed };
    const result = await autocannon(options);
    const expected = credential === 'flood' ? '401' : '200';
    const codes = Object.keys(result.statusCodeStats ?? {});
    if (codes.length !== 1 || codes[0] !== expected || result.errors > 0) {
      throw new Error(`${kind}: expected only ${expected}, got ${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors`);
    }
  };
  const control = (...args) => execFileSync('callgrind_control', [...args, String(child.pid)], { stdio: 'ignore' });
  await load(WARM);
  control('-i', 'on');
  await load(COUNT);
  control('-i', 'off');
  control('--dump');
  let total = 0;
  for (const file of readdirSync(dir).filter((f) => f.startsWith('callgrind.out.'))) {
    const annotated = execFileSync('callgrind_annotate', [join(dir, file)], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const match = annotated.match(/([\d,]+) \(100\.0%\)\s+PROGRAM TOTALS/);
    if (match) total += Number(match[1].replaceAll(',', ''));
  }
  console.log(`${kind} ${ROUTE} ${store} ${credential}: ${Math.round(total / COUNT)} instructions/request`);
} finally {
  child.kill('SIGKILL');
  await idp.close();
  rmSync(dir, { recursive: true, force: true });
}
