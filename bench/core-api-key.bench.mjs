/**
 * API key, in process: the authenticator on the memory store against hash + Map.get (target: at
 * least 0.6×, issue 40); the same with keys that expire (a year ahead: every check compares the
 * expiry with the store's clock), against the check without expiry (target: at most 2% slower, a
 * ratio of at least 0.98); and the check with a subscriber on `drops-auth:authenticate` (what
 * metrics or tracing add to each check; no target).
 *
 * Each variant runs in processes of its own (bench/core-api-key-process.mjs), one authenticator
 * on one store as an app runs it: in one process the variants shared V8's feedback and compiled
 * code (the closures of one `createAuthenticator`), so each was measured on code shaped by the
 * others (bench/METHOD.md). Each process measures its variant against the floor in the same
 * interleaved rounds; PROCESSES of each variant (BENCH_CORE_PROCESSES, default 3) run in turn,
 * and each row is the median over its processes of check / floor, the floor of its own process.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { quantile } from './measure.mjs';

const PROCESSES = Number(process.env.BENCH_CORE_PROCESSES ?? 3);
const CHILD = fileURLToPath(new URL('./core-api-key-process.mjs', import.meta.url));
const GROUP = 'API key, in process';

/** One process of `variant`: its best floor and check rates (operations per second). */
function measure(variant) {
  const out = execFileSync(process.execPath, [CHILD, variant], { cwd: fileURLToPath(new URL('.', import.meta.url)), encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1));
}

export async function run() {
  const runs = { plain: [], expiring: [], observed: [] };
  for (let i = 0; i < PROCESSES; i++) for (const variant of Object.keys(runs)) runs[variant].push(measure(variant));
  const median = (values) => quantile(values, 0.5);
  const ratioOf = (variant) => median(runs[variant].map(({ check, floor }) => check / floor));
  const rateOf = (variant) => median(runs[variant].map(({ check }) => check));
  const plain = ratioOf('plain');
  const note = `each variant in ${PROCESSES} processes of its own (one authenticator on one memory store, 1024 keys), each measured against the floor in its own process (9 interleaved rounds of 300 ms, the best of each); each ratio is the median over the processes of check / floor, and the second and third rows divide theirs by the first row's`;
  return [
    {
      group: GROUP,
      name: 'floor: crypto.hash sha256 + Map.get',
      opsPerSec: median(
        Object.values(runs)
          .flat()
          .map(({ floor }) => floor),
      ),
    },
    { group: GROUP, name: 'authenticate (MemoryKeyStore)', opsPerSec: rateOf('plain'), ratio: plain, target: 0.6, note },
    {
      group: GROUP,
      name: 'authenticate, keys that expire (MemoryKeyStore), against the row above',
      opsPerSec: rateOf('expiring'),
      ratio: ratioOf('expiring') / plain,
      target: 0.98,
    },
    {
      group: GROUP,
      name: 'authenticate with a subscriber on drops-auth:authenticate, against the first row',
      opsPerSec: rateOf('observed'),
      ratio: ratioOf('observed') / plain,
    },
  ];
}
