// The packages as a new user gets them: packed with `pnpm pack`, installed with plain npm into
// scratch projects that play existing apps, typechecked under strict, and driven over HTTP.
import { availableParallelism, tmpdir } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sendRawRequest, wireSnapshotOf } from '@drops/auth/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeBinary } from '../../scripts/node-binary.mjs';
import { checkKeyFlow } from '../smoke/key-flow.mjs';
import { limitConcurrency, type Limiter } from './limit-concurrency.js';
import { packPackages } from './pack-packages.js';
import type { CommandResult } from './run-command.js';
import { SCENARIOS, type Scenario } from './scenarios.js';
import { compile, npmInstall, writeScratchProject, type ScratchProject } from './scratch-project.js';
import { startApp, stopAllApps } from './start-app.js';

/** A scenario's project after `npm install` and, if that worked, tsc under each tsconfig. */
interface Prepared {
  readonly project: ScratchProject;
  readonly install: CommandResult;
  /** By tsconfig file name; empty when the install failed. */
  readonly compiles: ReadonlyMap<string, CommandResult>;
}

let scratchRoot: string;
/** Started together in beforeAll: installs run concurrently, tsc runs on at most one per core. */
const prepared = new Map<string, Promise<Prepared>>();
const nodeBinaries = new Map<string, Promise<string>>();

async function prepare(
  scenario: Scenario,
  tarballs: Parameters<typeof writeScratchProject>[2],
  cpu: Limiter,
): Promise<Prepared> {
  const project = await writeScratchProject(join(scratchRoot, scenario.name), scenario, tarballs);
  const install = await npmInstall(project);
  const compiles = new Map<string, CommandResult>();
  if (install.code !== 0) return { project, install, compiles };
  const tsconfigs = ['tsconfig.json', ...Object.keys(scenario.alsoTypecheckedUnder ?? {}).map((name) => `tsconfig.${name}.json`)];
  for (const tsconfig of tsconfigs) compiles.set(tsconfig, await cpu(() => compile(project, tsconfig)));
  return { project, install, compiles };
}

beforeAll(async () => {
  scratchRoot = await mkdtemp(join(tmpdir(), 'drops-consumers-'));
  const tarballs = await packPackages(await mkdtemp(join(scratchRoot, 'tarballs-')));
  const cpu = limitConcurrency(availableParallelism());
  for (const scenario of SCENARIOS) {
    const ready = prepare(scenario, tarballs, cpu);
    ready.catch(() => undefined); // reported by the scenario's own tests, not as an unhandled rejection
    prepared.set(scenario.name, ready);
    for (const version of scenario.alsoRunsOn ?? []) {
      if (nodeBinaries.has(version)) continue;
      const binary = nodeBinary(version);
      binary.catch(() => undefined);
      nodeBinaries.set(version, binary);
    }
  }
});

afterAll(async () => {
  await stopAllApps();
  await Promise.allSettled([...prepared.values(), ...nodeBinaries.values()]);
  if (scratchRoot) await rm(scratchRoot, { recursive: true, force: true });
});

/** The scenario's project, failing the test (with npm's output) if its install failed. */
async function installed(scenario: Scenario): Promise<Prepared> {
  const ready = await prepared.get(scenario.name)!;
  expect(ready.install.code, ready.install.output).toBe(0);
  return ready;
}

async function expectCleanCompile(scenario: Scenario, tsconfig: string): Promise<void> {
  const result = (await installed(scenario)).compiles.get(tsconfig)!;
  expect(result.output).toBe('');
  expect(result.code).toBe(0);
}

async function expectKeyFlowOn(scenario: Scenario, node: Promise<string>): Promise<void> {
  // tsc emits dist/ even when it reports a type error, so the flow is tested on its own.
  const { project } = await installed(scenario);
  const app = await startApp(await node, project.entry, project.dir);
  try {
    await checkKeyFlow({ url: app.url, idToken: app.idToken, accountId: 'acct-consumer' });
    // Two Authorization headers, a valid ID token first (Node keeps only the first in
    // `req.headers`), are the uniform 401 on the wire: the no-credential answer, byte for byte.
    const reference = wireSnapshotOf(await sendRawRequest(app.url, 'GET', '/whoami'));
    const duplicated: ReadonlyArray<readonly [string, string]> = [['Authorization', `Bearer ${app.idToken}`], ['Authorization', 'Bearer junk']];
    for (const [method, path, body] of [['GET', '/whoami'], ['GET', '/keys'], ['POST', '/keys', '{"name": ']] as const) {
      expect(wireSnapshotOf(await sendRawRequest(app.url, method, path, duplicated, body)), `${method} ${path}`).toBe(reference);
    }
    // A framework that drops rejected promises would have died on one of the flow's paths.
    expect(app.isRunning()).toBe(true);
    expect(app.output()).not.toMatch(/unhandled/i);
  } finally {
    await app.stop();
  }
}

describe.each(SCENARIOS)('$title', (scenario) => {
  it('installs from the packed tarballs with plain npm (no --legacy-peer-deps)', async () => {
    await installed(scenario);
  });

  it('typechecks under strict with the workspace tsc', async () => {
    await expectCleanCompile(scenario, 'tsconfig.json');
  });

  for (const variant of Object.keys(scenario.alsoTypecheckedUnder ?? {})) {
    it(`typechecks under moduleResolution ${variant} too`, async () => {
      await expectCleanCompile(scenario, `tsconfig.${variant}.json`);
    });
  }

  it(`runs the key flow over HTTP on Node ${process.versions.node} (the test runner's)`, async () => {
    await expectKeyFlowOn(scenario, Promise.resolve(process.execPath));
  });

  for (const version of scenario.alsoRunsOn ?? []) {
    it(`runs the key flow over HTTP on Node ${version}`, async () => {
      await expectKeyFlowOn(scenario, nodeBinaries.get(version)!);
    });
  }
});
