// `pnpm test`: every stage of the test run, each timed. Stops at the first step with a stage that
// fails (its own output says why), then prints the time of every stage that ran.
//
//   node scripts/test.mjs
import { spawn } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// `vitest` resolves from the root's node_modules/.bin, as it does in a package script.
const env = { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}` };

/**
 * The steps, in order: the stages of a step run at once (a name and the command that runs it).
 * The node matrix leaves most of a second core idle (it waits on npm, PostgreSQL and child
 * processes), so the package lint and the release notes dry run share its step.
 */
const STEPS = [
  [['chromium', 'node scripts/ensure-chromium.mjs']],
  [['lint', 'pnpm run lint']],
  [['build', 'pnpm run build']],
  [['typecheck', 'pnpm run typecheck']],
  // --isolate=false: each worker runs its project's files one after another in one process rather
  // than a fresh process and module graph per file, which was a third of the run's CPU (vitest's
  // "import" time) on two saturated cores. A file cleans up what it starts (servers, databases,
  // fake timers, env) as it would anyway. Set here because vitest applies no root `isolate` to the
  // projects' own config files.
  [['vitest', 'vitest run --isolate=false --reporter=default --reporter=json --outputFile.json=.tmp/vitest-report.json']],
  [
    ['node matrix', 'node scripts/node-matrix.mjs'],
    ['package lint', 'pnpm run lint:packages'],
    ['release notes', 'node scripts/check-release-notes.mjs'],
  ],
  [['leftover processes', 'node scripts/check-no-leftover-processes.mjs']],
];
/** Last, so its closing line ("tests: N passed, N failed") ends the output. */
const SUMMARY = 'node scripts/test-summary.mjs';

/**
 * Runs one stage. Alone, its output goes straight through; beside others, it is kept and printed
 * whole when the stage ends, so that the stages' lines do not interleave.
 * @returns {Promise<{ name: string, seconds: number, status: number | string }>}
 */
function runStage([name, command], alone) {
  const started = Date.now();
  const header = `\n== test stage: ${name} (${command})`;
  if (alone) console.log(header);
  const child = spawn(command, { cwd: ROOT, env, stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'], shell: true });
  const output = [];
  child.stdout?.on('data', (chunk) => output.push(chunk));
  child.stderr?.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      if (!alone) process.stdout.write(`${header}\n${Buffer.concat(output).toString()}`);
      console.log(`== test stage: ${name} ${code === 0 ? 'passed' : 'FAILED'} in ${seconds}s`);
      resolve({ name, seconds, status: code ?? signal ?? 'unknown' });
    });
  });
}

const timings = [];
let failed = null;
const started = Date.now();
for (const step of STEPS) {
  const results = await Promise.all(step.map((stage) => runStage(stage, step.length === 1)));
  for (const { name, seconds } of results) timings.push(`${name} ${seconds}s`);
  const failures = results.filter((result) => result.status !== 0);
  if (failures.length > 0) {
    failed = failures.map(({ name, status }) => `${name} (exit ${status})`).join(', ');
    break;
  }
}
console.log(`\ntest stages: ${timings.join(', ')}; ${Math.round((Date.now() - started) / 1000)}s in all`);
if (failed) {
  console.log(`test run failed at: ${failed}`);
  process.exit(1);
}
const summary = spawn(SUMMARY, { cwd: ROOT, env, stdio: 'inherit', shell: true });
summary.on('close', (code) => process.exit(code ?? 1));
