/**
 * ID tokens, first sight, on each runtime: drops-auth's `verify` as a ratio to that runtime's own
 * `crypto.subtle.verify` floor, both measured in the same run by the same server
 * (runtimes/verify-app.mjs). Node runs the `node:crypto` build; Bun, Deno and workerd (without
 * nodejs_compat) the Web Crypto build, each from the npm package runtime-tests installs.
 *
 * Requests are timed from here (workerd's clock stands still while a request computes), each by
 * the CPU time the runtime's process spent on it (see process-cpu-time.mjs) and by the wall
 * clock. After a warm-up, every round runs an empty request, the floor and the verifier (their
 * order alternating); the empty request's cost, the HTTP exchange, is taken off both. The ratio
 * is the median over rounds of floor / verifier per verification, from CPU time where Linux
 * reports it: a neighbour's load stretches the wall clock of one request stream far more than
 * the work it does. The wall-clock ratio is printed beside it.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { processCpuMs } from './process-cpu-time.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const GROUP = 'ID token, first sight, per runtime';
const ENTRY = { node: 'node.mjs', bun: 'bun.mjs', deno: 'deno.mjs', workerd: 'worker.mjs' };
/** Verifications per request: 20 ms (workerd) to 200 ms (Deno) of work. */
const PER_REQUEST = 1000;
const WARM_UP_REQUESTS = 3;
/** Odd, for a median. */
const ROUNDS = 15;

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

export async function run() {
  const { startRuntime } = await tsImport('@drops/runtime-tests/start-runtime', import.meta.url);
  const rows = [];
  for (const runtime of Object.keys(ENTRY)) {
    const server = await startRuntime(runtime, { entry: join(here, 'runtimes', ENTRY[runtime]), env: {} });
    try {
      const cpuMs = () => processCpuMs(server.pid);
      const measured = cpuMs() !== undefined;
      /** One request of `n` verifications: [wall ms, CPU ms (or wall ms where unavailable)]. */
      const request = async (what, n) => {
        const cpuBefore = cpuMs();
        const started = performance.now();
        const answer = await fetch(`${server.url}/${what}?n=${n}`);
        const text = await answer.text();
        const wall = performance.now() - started;
        if (!answer.ok) throw new Error(`${runtime} /${what}: ${answer.status} ${text} ${server.output()}`);
        return { wall, cpu: measured ? cpuMs() - cpuBefore : wall };
      };
      for (let i = 0; i < WARM_UP_REQUESTS; i++) {
        await request('floor', PER_REQUEST);
        await request('drops', PER_REQUEST);
      }
      const empty = [];
      const floor = [];
      const drops = [];
      for (let round = 0; round < ROUNDS; round++) {
        empty.push(await request('floor', 0));
        if (round % 2 === 0) {
          floor.push(await request('floor', PER_REQUEST));
          drops.push(await request('drops', PER_REQUEST));
        } else {
          drops.push(await request('drops', PER_REQUEST));
          floor.push(await request('floor', PER_REQUEST));
        }
      }
      /** Milliseconds per verification in each round, the empty request's median taken off. */
      const perVerification = (rounds, clock) => {
        const overhead = median(empty.map((r) => r[clock]));
        return rounds.map((r) => Math.max(r[clock] - overhead, 1e-9) / PER_REQUEST);
      };
      const ratioBy = (clock) => {
        const f = perVerification(floor, clock);
        const d = perVerification(drops, clock);
        return { floorMs: median(f), dropsMs: median(d), ratio: median(f.map((x, i) => x / d[i])) };
      };
      const cpu = ratioBy('cpu');
      const wall = ratioBy('wall');
      const name = `${runtime} (${server.version.replace(/\s*\(.*$/, '')})`;
      const by = measured ? 'CPU time' : 'wall clock (no per-thread CPU time on this system)';
      rows.push({ group: GROUP, name: `${name}: floor crypto.subtle.verify`, opsPerSec: 1000 / cpu.floorMs });
      rows.push({
        group: GROUP,
        name: `${name}: drops-auth verify`,
        opsPerSec: 1000 / cpu.dropsMs,
        ratio: cpu.ratio,
        target: 0.7,
        note: `${by}, median of ${ROUNDS} rounds of ${PER_REQUEST}${measured ? `; wall clock ${wall.ratio.toFixed(2)}×` : ''}`,
      });
    } finally {
      await server.stop();
    }
  }
  return rows;
}
