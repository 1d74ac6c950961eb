// Runs on each Node version `engines` names, with binaries from the npm registry, one version
// after another (CI has two cores), what can differ between them:
//
// - the core's suites that go through the platform: the crypto module (`node:crypto` for keys,
//   hashes, signatures and JWKS imports), fetch and Web `Request`/`Response` (undici), and the
//   secret scanning signatures: PLATFORM_SUITES below, on every version vitest runs on (vitest 4,
//   vite 8, needs Node >= 20.19, so not on 20.12). The rest of the vitest run is logic that does not
//   depend on the Node version; it runs once, on the Node that runs `pnpm test`;
// - the packed smoke suite (consumers/smoke/, plain node:test) on every version, 20.12 included:
//   the seven packages packed and installed with npm into scratch projects (Express 5, Koa 3,
//   Fastify 5, Hono 4, NestJS 11, pg and PGlite; and the oldest Express 4, Koa 2, Fastify 4 and
//   NestJS 10 the peer ranges admit), then ESM and CommonJS imports, minting and authenticating,
//   ID tokens against a local JWKS, every adapter's routes over HTTP (the framework and Node's
//   HTTP server together), and the KeyStore conformance suite on PostgreSQL (127.0.0.1:5432) and
//   PGlite.
//
// Prints one line per version, writes each run's JSON report to .tmp/node-matrix/ for
// scripts/test-summary.mjs, and exits non-zero if any version fails. `--smoke-only` runs the packed
// smoke suite alone (about a minute for the four versions).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { nodeBinary, TESTED_NODE_VERSIONS } from './node-binary.mjs';

const { preparePackedSmoke, runPackedSmoke } = await tsImport('../consumers/src/packed-smoke.ts', import.meta.url);

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REPORTS = '.tmp/node-matrix';
const smokeOnly = process.argv.includes('--smoke-only');
/** The core's folders whose tests go through the platform (see above), as vitest file filters. */
const PLATFORM_SUITES = ['api-key', 'id-token', 'platform', 'fetch', 'secret-scanning'].map((dir) => `packages/auth/src/${dir}/`);

/** vitest 4 (vite 8) needs Node 20.19 or later. */
function vitestRunsOn(version) {
  const [major, minor] = version.split('.').map(Number);
  return major > 20 || (major === 20 && minor >= 19);
}

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

/**
 * The vitest suites on one Node binary.
 * @returns {Promise<boolean>} whether they passed
 */
async function runVitestSuites(version, binary) {
  const started = Date.now();
  const report = `${REPORTS}/node-${version}.json`;
  const { code, output } = await run(binary, [
    'node_modules/vitest/vitest.mjs',
    'run',
    // One process per worker, as scripts/test.mjs runs vitest.
    '--isolate=false',
    '--project',
    'auth',
    ...PLATFORM_SUITES,
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
  console.log(
    `node-matrix: Node ${version}: platform suites ${counts} (vitest: ${PLATFORM_SUITES.length} folders of the core; ${seconds}s)`,
  );
  if (!ok) {
    // The dot reporter's progress line says nothing; the failures follow its "Failed Tests" banner.
    const failures = output.indexOf('Failed Tests');
    console.log(failures === -1 ? output : output.slice(output.lastIndexOf('\n', failures) + 1));
  }
  return ok;
}

/**
 * The packed smoke suite's projects on one Node binary; writes a report in vitest's JSON shape.
 * @returns {Promise<boolean>} whether it passed
 */
async function runSmokeSuite(version, binary, smokeProjects) {
  const started = Date.now();
  const results = [];
  for (const project of smokeProjects) results.push({ project, ...(await runPackedSmoke(binary, project)) });
  const sum = (key) => results.reduce((total, result) => total + result[key], 0);
  const [passed, failed, skipped] = [sum('passed'), sum('failed'), sum('skipped')];
  const ok = results.every((result) => result.ok);
  const report = {
    numPassedTests: passed,
    numFailedTests: failed,
    numPendingTests: skipped,
    numTotalTests: passed + failed + skipped,
    numFailedTestSuites: ok ? 0 : 1,
  };
  await writeFile(new URL(`../${REPORTS}/smoke-node-${version}.json`, import.meta.url), JSON.stringify(report));
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(
    `node-matrix: Node ${version}: packed smoke ${passed} passed, ${failed} failed (node:test, ${smokeProjects.map((p) => p.name).join(' and ')}; ${seconds}s)`,
  );
  for (const result of results) if (!result.ok) console.log(`${result.project.name}:\n${result.output}`);
  return ok;
}

await rm(new URL(`../${REPORTS}`, import.meta.url), { recursive: true, force: true });
await mkdir(new URL(`../${REPORTS}`, import.meta.url), { recursive: true });

let failed = false;
const smokeRoot = await mkdtemp(join(tmpdir(), 'drops-node-matrix-'));
try {
  // Packing and installing the smoke projects waits mostly on npm: it runs while the vitest suites do.
  /** @type {Promise<Awaited<ReturnType<typeof preparePackedSmoke>> | null>} */
  const smokePrepared = preparePackedSmoke(smokeRoot).catch((error) => {
    console.log(`node-matrix: the packed smoke suite could not be set up:\n${error instanceof Error ? error.message : error}`);
    return null;
  });
  /** @type {Map<string, string>} */
  const binaries = new Map();
  for (const version of TESTED_NODE_VERSIONS) {
    const binary = await nodeBinary(version);
    binaries.set(version, binary);
    if (smokeOnly) console.log(`node-matrix: Node ${version}: suites not run (--smoke-only)`);
    else if (vitestRunsOn(version)) failed = !(await runVitestSuites(version, binary)) || failed;
    else console.log(`node-matrix: Node ${version}: suites not run (vitest 4 needs Node >= 20.19); the packed smoke suite below covers it`);
  }
  const smokeProjects = await smokePrepared;
  if (smokeProjects === null) failed = true;
  else for (const [version, binary] of binaries) failed = !(await runSmokeSuite(version, binary, smokeProjects)) || failed;
} finally {
  await rm(smokeRoot, { recursive: true, force: true });
}
if (failed) process.exit(1);
