/**
 * The load of the adapters and embedded-flood benches: wrk (Debian's `wrk`, written in C), one
 * thread on this process's core, checking every answer's status and body in its Lua `response` hook.
 *
 * Why not autocannon, as the other HTTP benches use: against Fastify and Hono, whose bare routes
 * cost 25–30 µs of CPU, autocannon (JavaScript) used 0.80–0.98 of its own core. The load and
 * the server were then both near a full core. Which of the two held the other back changed from
 * one process start to the next, and with it the server's CPU per request: the same Fastify pair,
 * the same code, read 0.78–0.83× in one start and 0.93–1.01× in another (bench/METHOD.md). wrk
 * drives the same servers on about half of its core, and the server is the one at a full core.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { cpuMicros } from './peer-servers.mjs';

/** Checks every answer and prints the counts: wrk-check.lua says how. */
const SCRIPT = fileURLToPath(new URL('wrk-check.lua', import.meta.url));

/** Fails with the one line that fixes it when wrk is not installed. */
export function assertWrk() {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (error) {
    // `wrk --version` prints its version and exits 1; only a missing binary is an error here.
    if (error.code === 'ENOENT') throw new Error('the HTTP benches drive their load with wrk: apt-get install wrk');
  }
}

/** Fails with one line naming `setting` unless `seconds` is whole and at least 1: wrk's `-d` takes no fraction. */
export function assertWholeSeconds(setting, seconds) {
  if (!Number.isInteger(seconds) || seconds < 1) throw new Error(`${setting}: whole seconds (wrk's -d), not ${seconds}`);
}

/**
 * `seconds` (whole: wrk takes no fraction) of GET `url` over `connections` keep-alive connections
 * with the `authorization` header, or (`randomKeys: true`) a new random well-formed API key on
 * every request. Resolves `{ right, wrong, seconds, errors, timeouts }`: `right` the answers that
 * had the status `expectStatus` (default 200) and exactly the body `expectBody`, `wrong` any other.
 */
export async function wrk({ url, connections, seconds, authorization, expectBody, expectStatus = 200, randomKeys = false }) {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '5s', '-s', SCRIPT];
  if (authorization) args.push('-H', `Authorization: ${authorization}`);
  args.push(url);
  const env = {
    ...process.env,
    DROPS_BENCH_EXPECTED_BODY: expectBody,
    DROPS_BENCH_EXPECTED_STATUS: String(expectStatus),
    // A new seed per run: no run sends the keys of another.
    DROPS_BENCH_RANDOM_KEYS: randomKeys ? String(randomInt(2 ** 31)) : '',
  };
  const stdout = await new Promise((resolve, reject) => {
    execFile('wrk', args, { env }, (error, out, err) => (error ? reject(new Error(`wrk ${url}: ${error.message}\n${err}`)) : resolve(out)));
  });
  const line = stdout.match(/^drops-bench (.*)$/m);
  if (line === null) throw new Error(`wrk ${url}: no summary in its output:\n${stdout}`);
  return Object.fromEntries(
    line[1]
      .split(' ')
      .map((pair) => pair.split('='))
      .map(([k, v]) => [k, Number(v)]),
  );
}

/**
 * {@link wrk}, failing with `label` and the counts on any wrong answer, error or timeout, or on no
 * right answer at all. Resolves wrk's counts.
 */
export async function checkedWrk(label, options) {
  const result = await wrk(options);
  const bad = { 'wrong answers': result.wrong, errors: result.errors, timeouts: result.timeouts };
  if (Object.values(bad).some((n) => n > 0) || result.right === 0) {
    throw new Error(
      `${label}: ${Object.entries(bad)
        .map(([what, n]) => `${n} ${what}`)
        .join(', ')} (${result.right} right answers)`,
    );
  }
  return result;
}

/**
 * {@link checkedWrk} against a server whose process is `pid`: resolves its requests/s and CPU µs
 * per request (the process's CPU time over the run, every thread, per right answer).
 */
export async function measureWithWrk(pid, label, options) {
  const before = cpuMicros(pid);
  const result = await checkedWrk(label, options);
  return { rate: result.right / result.seconds, cpu: (cpuMicros(pid) - before) / result.right };
}
