// Runs the core and adapter suites (vitest projects auth, postgres, express, koa, and the adapters'
// projects for older framework majors) on each Node version `engines` names, with binaries from the
// npm registry, one version after another (CI has two cores). Prints one line per version, writes
// each run's JSON report to .tmp/node-matrix/ for scripts/test-summary.mjs, and exits non-zero if
// any version fails.
//
// Node 20.12 is the exception: vitest 4 (vite 8) needs Node >= 20.19, so the suites cannot run on
// it. The consumer test (vitest project `consumers`) runs the packed packages' apps on 20.12 instead.
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { nodeBinary, TESTED_NODE_VERSIONS } from './node-binary.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REPORTS = '.tmp/node-matrix';
// `express (...)` and `koa (...)`: the adapters' suites again on older framework majors, if any.
const PROJECTS = ['auth', 'postgres', 'express', 'express (*', 'koa', 'koa (*'];
/** Versions vitest itself cannot run on; see the header. */
const COVERED_BY_CONSUMER_TEST = new Set(['20.12.2']);

/** @returns {Promise<{ code: number | null, output: string }>} */
function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

await rm(new URL(`../${REPORTS}`, import.meta.url), { recursive: true, force: true });
await mkdir(new URL(`../${REPORTS}`, import.meta.url), { recursive: true });

let failed = false;
for (const version of TESTED_NODE_VERSIONS) {
  if (COVERED_BY_CONSUMER_TEST.has(version)) {
    console.log(`node-matrix: Node ${version}: the packed packages' apps run on it in the consumers project (vitest needs >= 20.19)`);
    continue;
  }
  const started = Date.now();
  const report = `${REPORTS}/node-${version}.json`;
  const binary = await nodeBinary(version);
  const projects = PROJECTS.flatMap((name) => ['--project', name]);
  const { code, output } = await run(binary, [
    'node_modules/vitest/vitest.mjs',
    'run',
    ...projects,
    '--reporter=dot',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ]);
  const seconds = Math.round((Date.now() - started) / 1000);
  let counts = 'no report';
  let ok = false;
  try {
    const { numPassedTests, numFailedTests, numTotalTests } = JSON.parse(await readFile(new URL(`../${report}`, import.meta.url), 'utf8'));
    counts = `${numPassedTests} passed, ${numFailedTests} failed`;
    ok = code === 0 && numFailedTests === 0 && numTotalTests > 0;
  } catch {
    // no report: vitest did not start; its output below says why
  }
  console.log(`node-matrix: Node ${version}: ${counts} (auth, postgres, express, koa; ${seconds}s)`);
  if (!ok) {
    failed = true;
    // The dot reporter's progress line says nothing; the failures follow its "Failed Tests" banner.
    const failures = output.indexOf('Failed Tests');
    console.log(failures === -1 ? output : output.slice(output.lastIndexOf('\n', failures) + 1));
  }
}
if (failed) process.exit(1);
