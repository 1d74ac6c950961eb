/**
 * The adapters' load: wrk (Debian's `wrk`, written in C), one thread on this process's core,
 * checking every answer's status and body in its Lua `response` hook.
 *
 * Why not autocannon, as the other HTTP benches use: against Fastify and Hono, whose bare routes
 * cost 25–30 µs of CPU, autocannon (JavaScript) used 0.80–0.98 of its own core. The load and
 * the server were then both near a full core. Which of the two held the other back changed from
 * one process start to the next, and with it the server's CPU per request: the same Fastify pair,
 * the same code, read 0.78–0.83× in one start and 0.93–1.01× in another (bench/METHOD.md). wrk drives the same servers
 * on about half of its core, and the server is the one at a full core.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Counts the answers (globals, so that `done` can read each thread's) and prints one line at the end. */
const SCRIPT = `
right = 0
wrong = 0
local expected = os.getenv("DROPS_BENCH_EXPECTED_BODY")
local threads = {}
function setup(thread) table.insert(threads, thread) end
function response(status, headers, body)
  if status == 200 and body == expected then right = right + 1 else wrong = wrong + 1 end
end
function done(summary, latency, requests)
  local r, w = 0, 0
  for _, t in ipairs(threads) do r = r + t:get("right"); w = w + t:get("wrong") end
  local e = summary.errors
  io.write(string.format("drops-bench right=%d wrong=%d seconds=%f errors=%d timeouts=%d\\n",
    r, w, summary.duration / 1e6, e.connect + e.read + e.write, e.timeout))
end
`;

let scriptPath;

/** Fails with the one line that fixes it when wrk is not installed. */
export function assertWrk() {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (error) {
    // `wrk --version` prints its version and exits 1; only a missing binary is an error here.
    if (error.code === 'ENOENT') throw new Error('the adapters bench drives its load with wrk: apt-get install wrk');
  }
}

/**
 * `seconds` of GET `url` over `connections` keep-alive connections with the `authorization`
 * header. Resolves `{ right, wrong, seconds, errors, timeouts }`: `right` the answers that were a
 * 200 with exactly `expectBody`, `wrong` any other.
 */
export async function wrk({ url, connections, seconds, authorization, expectBody }) {
  if (scriptPath === undefined) {
    scriptPath = join(mkdtempSync(join(tmpdir(), 'drops-wrk-')), 'check.lua');
    writeFileSync(scriptPath, SCRIPT);
  }
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '5s', '-s', scriptPath];
  if (authorization) args.push('-H', `Authorization: ${authorization}`);
  args.push(url);
  const stdout = await new Promise((resolve, reject) => {
    execFile('wrk', args, { env: { ...process.env, DROPS_BENCH_EXPECTED_BODY: expectBody } }, (error, out, err) =>
      error ? reject(new Error(`wrk ${url}: ${error.message}\n${err}`)) : resolve(out),
    );
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
