// `pnpm test`: every stage of the test run, one after another, each timed. Stops at the first
// stage that fails (its own output says why), then prints the time of every stage that ran.
//
//   node scripts/test.mjs
import { spawnSync } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// `vitest` resolves from the root's node_modules/.bin, as it does in a package script.
const env = { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}` };

/** The stages, in order: a name and the command that runs it. */
const STAGES = [
  ['chromium', 'node scripts/ensure-chromium.mjs'],
  ['lint', 'pnpm run lint'],
  ['build', 'pnpm run build'],
  ['typecheck', 'pnpm run typecheck'],
  // --isolate=false: each worker runs its project's files one after another in one process rather
  // than a fresh process and module graph per file, which was a third of the run's CPU (vitest's
  // "import" time) on two saturated cores. A file cleans up what it starts (servers, databases,
  // fake timers, env) as it would anyway. Set here because vitest applies no root `isolate` to the
  // projects' own config files.
  ['vitest', 'vitest run --isolate=false --reporter=default --reporter=json --outputFile.json=.tmp/vitest-report.json'],
  ['node matrix', 'node scripts/node-matrix.mjs'],
  ['package lint', 'pnpm run lint:packages'],
  ['release notes', 'node scripts/check-release-notes.mjs'],
  ['leftover processes', 'node scripts/check-no-leftover-processes.mjs'],
];
/** Last, so its closing line ("tests: N passed, N failed") ends the output. */
const SUMMARY = 'node scripts/test-summary.mjs';

const timings = [];
let failed = null;
const started = Date.now();
for (const [name, command] of STAGES) {
  const stageStarted = Date.now();
  console.log(`\n== test stage: ${name} (${command})`);
  const { status, signal } = spawnSync(command, { cwd: ROOT, env, stdio: 'inherit', shell: true });
  const seconds = Math.round((Date.now() - stageStarted) / 1000);
  timings.push(`${name} ${seconds}s`);
  console.log(`== test stage: ${name} ${status === 0 ? 'passed' : 'FAILED'} in ${seconds}s`);
  if (status !== 0) {
    failed = `${name} (exit ${status ?? signal})`;
    break;
  }
}
console.log(`\ntest stages: ${timings.join(', ')}; ${Math.round((Date.now() - started) / 1000)}s in all`);
if (failed) {
  console.log(`test run failed at: ${failed}`);
  process.exit(1);
}
process.exit(spawnSync(SUMMARY, { cwd: ROOT, env, stdio: 'inherit', shell: true }).status ?? 1);
