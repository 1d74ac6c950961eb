// The packages as a new user gets them: packed with `pnpm pack`, installed with plain npm into
// scratch projects that play existing apps, typechecked under strict (an app built by its
// framework's CLI, Next.js, by that CLI), and driven over HTTP.
import { tmpdir } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { LocalIdentityProvider, snapshotOf, UNIFORM_401, uniform401WireSweep, type AnswerSnapshot } from '@drops/auth/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeBinary } from '../../scripts/node-binary.mjs';
import { checkDuplicatedAuthorization, checkKeyFlow } from '../smoke/key-flow.mjs';
import { checkGlobalBodyParser } from './check-global-body-parser.js';
import { startCompiler, type Compiler } from './compiler.js';
import { limitConcurrency } from './limit-concurrency.js';
import { packPackages } from './pack-packages.js';
import type { CommandResult } from './run-command.js';
import {
  buildKeyOf,
  isCliScenario,
  SCENARIO_OPTIONS_ENV,
  SCENARIOS,
  type CliScenario,
  type Scenario,
  type TscScenario,
} from './scenarios.js';
import { buildWithCli, npmInstall, writeScratchProject, type ScratchProject } from './scratch-project.js';
import { freePort, startApp, startCliServer, stopAllApps, type RunningApp } from './start-app.js';

/**
 * The scenarios this run plays: all, or those named in `DROPS_CONSUMER_SCENARIOS` (comma-separated
 * names), since vitest's `-t` filters the tests but not the installs and builds of `beforeAll`.
 */
const PLAYED: readonly Scenario[] = selectScenarios(process.env['DROPS_CONSUMER_SCENARIOS']);

function selectScenarios(names: string | undefined): readonly Scenario[] {
  if (names === undefined || names === '') return SCENARIOS;
  const wanted = names.split(',');
  const unknown = wanted.filter((name) => !SCENARIOS.some((scenario) => scenario.name === name));
  if (unknown.length > 0) throw new Error(`DROPS_CONSUMER_SCENARIOS names no scenario: ${unknown.join(', ')}`);
  return SCENARIOS.filter((scenario) => wanted.includes(scenario.name));
}

/** A scenario's project after `npm install` and, if that worked, tsc under each tsconfig (or its CLI's build). */
interface Prepared {
  readonly project: ScratchProject;
  readonly install: CommandResult;
  /** By tsconfig file name, or {@link CLI_BUILD}; empty when the install failed. */
  readonly compiles: ReadonlyMap<string, CommandResult>;
}

/** The key of a CLI app's build in {@link Prepared.compiles}. */
const CLI_BUILD = 'cli build';

let scratchRoot: string;
/** The identity provider of the apps built by a CLI: theirs is the test's own, so the wire sweep can forge its tokens. */
let idp: LocalIdentityProvider;
/**
 * By scenario name, started together in beforeAll: installs run concurrently, and each project is
 * compiled, as its install ends, by the one warm compiler.
 */
const prepared = new Map<string, Promise<Prepared>>();
const nodeBinaries = new Map<string, Promise<string>>();
let compiler: Compiler | undefined;

/** What a CLI app reads its identity provider from, at build and at run time. */
function idpEnv(): NodeJS.ProcessEnv {
  const { issuer, audience, jwksUrl } = idp.verifierOptions;
  return { DROPS_IDP_ISSUER: issuer, DROPS_IDP_AUDIENCE: audience, DROPS_IDP_JWKS_URL: jwksUrl };
}

/**
 * `cliBuildSlot` resolves once a CLI build may start: CLI builds (Next.js uses every core) run one
 * after the other, and only once every tsc app is compiled.
 */
async function prepare(
  scenario: Scenario,
  tarballs: Parameters<typeof writeScratchProject>[2],
  cliBuildSlot: () => Promise<() => void>,
): Promise<Prepared> {
  const project = await writeScratchProject(join(scratchRoot, scenario.name), scenario, tarballs);
  const install = await npmInstall(project);
  const compiles = new Map<string, CommandResult>();
  if (install.code !== 0) return { project, install, compiles };
  if (isCliScenario(scenario)) {
    const release = await cliBuildSlot();
    try {
      compiles.set(CLI_BUILD, await buildWithCli(project, scenario, idpEnv()));
    } finally {
      release();
    }
    return { project, install, compiles };
  }
  const tsconfigs = ['tsconfig.json', ...Object.keys(scenario.alsoTypecheckedUnder ?? {}).map((name) => `tsconfig.${name}.json`)];
  for (const tsconfig of tsconfigs) compiles.set(tsconfig, await compiler!.compile(project, tsconfig));
  return { project, install, compiles };
}

beforeAll(async () => {
  scratchRoot = await mkdtemp(join(tmpdir(), 'drops-consumers-'));
  idp = await LocalIdentityProvider.start();
  const tarballs = await packPackages(await mkdtemp(join(scratchRoot, 'tarballs-')));
  compiler = startCompiler();
  const oneCliBuild = limitConcurrency(1);
  const tscApps: Array<Promise<Prepared>> = [];
  const cliBuildSlot = async (): Promise<() => void> => {
    await Promise.allSettled(tscApps);
    return new Promise((acquired) => {
      void oneCliBuild(() => new Promise<void>((release) => acquired(release)));
    });
  };
  // The tsc apps first, so that a CLI build knows every tsc run it must wait for.
  const ordered = [...PLAYED].sort((a, b) => Number(isCliScenario(a)) - Number(isCliScenario(b)));
  // Scenarios that differ only in run-time options share one install and compile.
  const builds = new Map<string, Promise<Prepared>>();
  for (const scenario of ordered) {
    const build = buildKeyOf(scenario);
    let ready = builds.get(build);
    if (ready === undefined) {
      ready = prepare(scenario, tarballs, cliBuildSlot);
      ready.catch(() => undefined); // reported by the scenario's own tests, not as an unhandled rejection
      builds.set(build, ready);
      if (!isCliScenario(scenario)) tscApps.push(ready);
    }
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
  await compiler?.close();
  await idp?.close();
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
  const app = await startApp(await node, project.entry, project.dir, { [SCENARIO_OPTIONS_ENV]: (scenario.options ?? []).join(',') });
  try {
    await checkKeyFlow({ url: app.url, idToken: app.idToken, accountId: 'acct-consumer' });
    await checkDuplicatedAuthorization({ url: app.url, idToken: app.idToken });
    if (scenario.options?.includes('global-body-parser')) await checkGlobalBodyParser(app);
    // A framework that drops rejected promises would have died on one of the flow's paths.
    expect(app.isRunning()).toBe(true);
    expect(app.output()).not.toMatch(/unhandled/i);
  } finally {
    await app.stop();
  }
}

/** A CLI app, built: its real server process (`next start`), on a free loopback port. */
async function startBuilt(scenario: CliScenario): Promise<RunningApp> {
  const { project, compiles } = await installed(scenario);
  const build = compiles.get(CLI_BUILD)!;
  expect(build.code, build.output).toBe(0);
  const port = await freePort();
  return startCliServer(process.execPath, [project.entry, ...scenario.start(port)], {
    cwd: project.dir,
    env: idpEnv(),
    url: `http://127.0.0.1:${port}`,
    readyPath: '/healthz',
    idToken: idp.mintIdToken({ sub: 'acct-consumer' }),
  });
}

const bearer = (credential: string): Record<string, string> => ({ authorization: `Bearer ${credential}` });

/**
 * The uniform 401 as Next.js sends it: the same status, headers and body bytes, but no
 * `Content-Length`. Next's `sendResponse` drops it from every route handler answer (its
 * FORBIDDEN_HEADERS: the body may have been decoded) and sends the body chunked.
 */
const NEXT_UNIFORM_401: AnswerSnapshot = {
  ...UNIFORM_401,
  headerOrder: UNIFORM_401.headerOrder.filter((name) => name !== 'content-length'),
  headers: { ...UNIFORM_401.headers, 'content-length': null },
};

/** Installing and building Next.js waits for every other scenario's tsc, then for the other Next build. */
const CLI_BUILD_TIMEOUT = 900_000;

describe.each(PLAYED.filter(isCliScenario))('$title', (scenario) => {
  let app: RunningApp | undefined;
  afterAll(async () => {
    await app?.stop();
  });
  /** One server for the scenario's tests, started by the first that needs it. */
  const server = async (): Promise<RunningApp> => (app ??= await startBuilt(scenario));

  it('installs from the packed tarballs with plain npm (no --legacy-peer-deps)', { timeout: CLI_BUILD_TIMEOUT }, async () => {
    await installed(scenario);
  });

  it("builds with its own CLI, which typechecks the route handlers with the app's TypeScript", { timeout: CLI_BUILD_TIMEOUT }, async () => {
    const build = (await installed(scenario)).compiles.get(CLI_BUILD)!;
    expect(build.code, build.output).toBe(0);
    expect(build.output).not.toMatch(/type error|failed to compile/i);
  });

  it(`runs the key flow over HTTP on its own server, on Node ${process.versions.node}`, { timeout: CLI_BUILD_TIMEOUT }, async () => {
    const running = await server();
    await checkKeyFlow({ url: running.url, idToken: running.idToken, accountId: 'acct-consumer', uniform401: NEXT_UNIFORM_401 });
    expect(running.isRunning()).toBe(true);
  });

  it('answers every credential failure on every route with the same 401 bytes (but a duplicated Authorization header)', {
    timeout: CLI_BUILD_TIMEOUT,
  }, async () => {
    const running = await server();
    const sweep = await uniform401WireSweep({ url: running.url, idp, accountRoutes: [['GET', '/whoami']] });
    const answers = sweep.answers.filter(([what]) => !what.startsWith('duplicate header'));
    expect(answers.length).toBeGreaterThan(50);
    for (const [what, wire] of answers) expect(wire, what).toBe(sweep.expected);
    expect(await snapshotOf(sweep.reference)).toEqual(NEXT_UNIFORM_401);
  });

  // Known limit, not drops-auth's to fix: Node's HTTP server keeps only the first of two
  // `Authorization` headers, and `next start` builds the route handler's Request from what is
  // left, so a valid ID token followed by a second header is authenticated (docs/adapters.md says
  // what to do). This states what should happen, and fails the day Next passes both through.
  it.fails('answers a duplicated Authorization header with the uniform 401 (known to fail: next start hands the handler only the first)', {
    timeout: CLI_BUILD_TIMEOUT,
  }, async () => {
    const running = await server();
    const sweep = await uniform401WireSweep({ url: running.url, idp, accountRoutes: [['GET', '/whoami']] });
    const duplicated = sweep.answers.filter(([what]) => what.startsWith('duplicate header'));
    expect(duplicated.length).toBeGreaterThan(5);
    for (const [what, wire] of duplicated) expect(wire, what).toBe(sweep.expected);
  });

  it("answers any method under the keys path without a credential with the uniform 401, never Next's own 405", async () => {
    const running = await server();
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']) {
      for (const path of ['/keys', '/keys/events', '/keys/a/b']) {
        const res = await fetch(`${running.url}${path}`, { method });
        if (method === 'HEAD') expect(res.status, `${method} ${path}`).toBe(401);
        else expect(await snapshotOf(res), `${method} ${path}`).toEqual(NEXT_UNIFORM_401);
      }
    }
  });

  it("records the client the app says where to find (requestInfo), not Next's route context", async () => {
    const running = await server();
    const token = idp.mintIdToken({ sub: 'acct-client-info' });
    const minted = await fetch(`${running.url}/keys`, {
      method: 'POST',
      headers: { ...bearer(token), 'x-real-ip': '203.0.113.9', 'user-agent': 'consumer-test' },
    });
    expect(minted.status).toBe(201);
    const events = await fetch(`${running.url}/keys/events`, { headers: bearer(token) });
    const {
      events: [latest],
    } = (await events.json()) as { events: Array<{ type: string; ip: string | null; userAgent: string | null }> };
    expect([latest?.type, latest?.ip, latest?.userAgent]).toEqual(['minted', '203.0.113.9', 'consumer-test']);
  });
});

describe.each(PLAYED.filter((scenario): scenario is TscScenario => !isCliScenario(scenario)))('$title', (scenario) => {
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
