// The packed smoke suite: the @drops packages as `pnpm pack` makes them, installed with plain npm into
// scratch projects, then tested by plain node:test files (consumers/smoke/) on any Node binary. It
// needs no test runner of ours, so it runs where vitest cannot: Node 20.12 to 20.18 (vitest 4 needs
// 20.19). scripts/node-matrix.mjs runs it on every Node that `engines` names.
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packPackages } from './pack-packages.js';
import { runCommand } from './run-command.js';
import type { DropsPackage } from './scenarios.js';
import { npmInstall } from './scratch-project.js';
import { scratchEnv } from './scratch-env.js';

const SMOKE_DIR = fileURLToPath(new URL('../smoke/', import.meta.url));

/** One scratch project of the smoke suite: the frameworks it installs and the test files it runs. */
export interface SmokeProject {
  readonly name: string;
  /** Registry packages besides the @drops tarballs, as an app pins them. */
  readonly dependencies: Readonly<Record<string, string>>;
  /** Files of consumers/smoke/ it runs; `'all'` for every `*.test.mjs` and `*.test.cjs`. */
  readonly tests: readonly string[] | 'all';
}

/** Node 20.12 runs what an app on it installs today, and what the peer ranges still admit. */
export const SMOKE_PROJECTS: readonly SmokeProject[] = [
  {
    name: 'current-majors',
    dependencies: {
      express: '^5.1.0',
      koa: '^3.0.0',
      '@koa/router': '^15.0.0',
      fastify: '^5.0.0',
      hono: '^4.0.0',
      '@hono/node-server': '^2.0.0',
      // NestJS 11: CommonJS, so `require('@drops/auth-nestjs')` works on Node 20.12 (12 is ESM only).
      '@nestjs/common': '^11.0.0',
      '@nestjs/core': '^11.0.0',
      'reflect-metadata': '^0.2.0',
      rxjs: '^7.8.0',
      pg: '^8.11.0',
      '@electric-sql/pglite': '^0.5.0',
    },
    tests: 'all',
  },
  {
    // The oldest versions the adapters' peer ranges admit; the core and store tests run above.
    name: 'oldest-majors',
    dependencies: {
      express: '4.17.3',
      koa: '2.13.4',
      '@koa/router': '12.0.0',
      fastify: '4.26.0',
      '@nestjs/common': '10.0.0',
      '@nestjs/core': '10.0.0',
      'reflect-metadata': '^0.1.13',
      rxjs: '^7.8.0',
    },
    tests: ['entries.test.mjs', 'entries.test.cjs', 'express.test.mjs', 'koa.test.mjs', 'fastify.test.mjs'],
  },
];

/** A smoke project on disk, installed. */
export interface PreparedSmokeProject {
  readonly name: string;
  readonly dir: string;
  /** Paths of its test files, relative to `dir`. */
  readonly testFiles: readonly string[];
}

/** What one run of a project's tests counted. */
export interface SmokeResult {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  /** The spec reporter's output: what to print when `ok` is false. */
  readonly output: string;
  /** The process exited 0, with at least one test and none failed, cancelled, skipped or todo. */
  readonly ok: boolean;
}

const DROPS_PACKAGES: readonly DropsPackage[] = [
  '@drops/auth',
  '@drops/auth-express',
  '@drops/auth-koa',
  '@drops/auth-fastify',
  '@drops/auth-hono',
  '@drops/auth-nestjs',
  '@drops/auth-postgres',
];

/**
 * Packs the @drops packages (built already) into `scratchRoot`, writes one project per
 * {@link SMOKE_PROJECTS} entry with the tarballs, its frameworks and consumers/smoke/ as `test/`,
 * and runs `npm install` in each (plain npm: no workspace link, no `--legacy-peer-deps`).
 * Rejects with npm's output if an install fails.
 *
 * @example
 * ```ts
 * const projects = await preparePackedSmoke(await mkdtemp(join(tmpdir(), 'drops-smoke-')));
 * ```
 */
export async function preparePackedSmoke(scratchRoot: string): Promise<PreparedSmokeProject[]> {
  const tarballs = await packPackages(await mkdirp(join(scratchRoot, 'tarballs')));
  const smokeFiles = await readdir(SMOKE_DIR);
  const allTests = smokeFiles.filter((file) => /\.test\.[cm]js$/.test(file));
  return Promise.all(
    SMOKE_PROJECTS.map(async (project) => {
      const dir = await mkdirp(join(scratchRoot, project.name));
      await mkdirp(join(dir, 'test'));
      const drops = Object.fromEntries(DROPS_PACKAGES.map((name) => [name, `file:${tarballs[name]}`]));
      const packageJson = {
        name: `smoke-${project.name}`,
        private: true,
        type: 'module',
        dependencies: { ...drops, ...project.dependencies },
      };
      await writeFile(join(dir, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
      for (const file of smokeFiles) await copyFile(join(SMOKE_DIR, file), join(dir, 'test', file));
      const install = await npmInstall({ dir });
      if (install.code !== 0) throw new Error(`npm install in the ${project.name} smoke project failed:\n${install.output}`);
      const tests = project.tests === 'all' ? allTests : project.tests;
      if (project.dependencies['@electric-sql/pglite'] !== undefined) await makePGliteCluster(dir);
      return { name: project.name, dir, testFiles: tests.map((file) => join('test', file)) };
    }),
  );
}

/** Where a prepared project keeps its PGlite cluster (see {@link makePGliteCluster}). */
const PGLITE_CLUSTER = 'pglite-cluster';

/**
 * A fresh PGlite cluster (initdb, nothing else) in the project, made once with its installed PGlite:
 * the smoke tests open copies of it (`DROPS_SMOKE_PGLITE_CLUSTER`) instead of running initdb, about
 * 7 s of CPU, twice on every Node version.
 */
async function makePGliteCluster(dir: string): Promise<void> {
  const script = `const { PGlite } = await import('@electric-sql/pglite'); await (await PGlite.create(${JSON.stringify(PGLITE_CLUSTER)})).close();`;
  const made = await runCommand(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, env: scratchEnv() });
  if (made.code !== 0) throw new Error(`the PGlite cluster of the smoke project in ${dir} could not be made:\n${made.output}`);
}

/**
 * Runs a prepared project's test files with `node --test` on the given node binary, and counts
 * the results from its TAP summary.
 *
 * @example
 * ```ts
 * const { ok, passed, output } = await runPackedSmoke(await nodeBinary('20.12.2'), project);
 * ```
 */
export async function runPackedSmoke(node: string, project: PreparedSmokeProject): Promise<SmokeResult> {
  const tapFile = join(project.dir, 'results.tap');
  await writeFile(tapFile, '');
  const { code, output } = await runCommand(
    node,
    [
      '--test',
      // Node runs one file at a time on two cores (its default is one less than the cores); the
      // files spend most of their time waiting on npm's bins, PostgreSQL and PGlite, each in a
      // scratch database of its own, so three at once.
      '--test-concurrency=3',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tapFile}`,
      ...project.testFiles,
    ],
    { cwd: project.dir, env: scratchEnv({ NO_COLOR: '1', DROPS_SMOKE_PGLITE_CLUSTER: join(project.dir, PGLITE_CLUSTER) }) },
  );
  const tap = await readFile(tapFile, 'utf8');
  const count = (name: string): number => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(tap)?.[1] ?? Number.NaN);
  const [tests, passed, failed, cancelled, skipped, todo] = ['tests', 'pass', 'fail', 'cancelled', 'skipped', 'todo'].map(count) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ok = code === 0 && tests > 0 && passed === tests && failed + cancelled + skipped + todo === 0;
  const problems = (failed || 0) + (cancelled || 0);
  // A run that failed before its summary (a file that cannot load, a crash) still counts as one failure.
  return { passed: passed || 0, failed: ok || problems > 0 ? problems : 1, skipped: (skipped || 0) + (todo || 0), output, ok };
}

async function mkdirp(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  return dir;
}
