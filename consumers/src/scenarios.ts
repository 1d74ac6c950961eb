import { TESTED_NODE_VERSIONS } from '../../scripts/node-binary.mjs';

/** The @drops packages, as a scratch app names them in its package.json. */
export type DropsPackage =
  | '@drops/auth'
  | '@drops/auth-express'
  | '@drops/auth-koa'
  | '@drops/auth-fastify'
  | '@drops/auth-hono'
  | '@drops/auth-nestjs'
  | '@drops/auth-postgres';

/** What a scenario's app is, besides how it is built: its module system and what it installs. */
interface ScenarioBase {
  /** Short and unique: the scratch folder's name. */
  readonly name: string;
  /** What a reader of the test report sees. */
  readonly title: string;
  readonly packageType: 'module' | 'commonjs';
  /** The @drops packages it installs (from the packed tarballs). */
  readonly drops: readonly DropsPackage[];
  /** Registry packages, as an app pins them. */
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
  /** Exact Node versions it also runs on, besides the one running the tests. */
  readonly alsoRunsOn?: readonly string[];
  /**
   * Variants of the fixture, each with its checks beyond the key flow; the app reads them from
   * `DROPS_SCENARIO_OPTIONS` (comma-separated). `global-body-parser`: the app's own
   * `express.json()`/`express.urlencoded()` mounted before drops' routes, and malformed and
   * oversized bodies on `POST /keys` checked.
   */
  readonly options?: readonly ScenarioOption[];
}

/** A variant of a fixture: see {@link ScenarioBase.options}. */
export type ScenarioOption = 'global-body-parser';

/** The variable a fixture reads its {@link ScenarioOption}s from. */
export const SCENARIO_OPTIONS_ENV = 'DROPS_SCENARIO_OPTIONS';

/** One existing app the consumer test plays: one source file, compiled by the workspace's tsc and run with node. */
export interface TscScenario extends ScenarioBase {
  /** The app's one source file, from `consumers/fixtures/`. */
  readonly fixture: string;
  /** `module` and `moduleResolution` of its tsconfig.json (and e.g. decorators); everything else is strict and shared. */
  readonly compilerOptions: Readonly<Record<string, string | boolean>>;
  /** Further resolutions it is typechecked under (no emit), e.g. a CommonJS app still on node10. */
  readonly alsoTypecheckedUnder?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/**
 * An app that is a folder built and served by its framework's own CLI (Next.js): the CLI
 * typechecks and builds it, then serves it as the app's real server process. Its identity provider
 * is the test's own (issuer, audience and JWKS URL in `DROPS_IDP_*`), so the test also sweeps the
 * uniform 401 on the wire.
 */
export interface CliScenario extends ScenarioBase {
  /** The app's folder, from `consumers/fixtures/`, tsconfig.json included. */
  readonly fixtureDir: string;
  /** The CLI's script inside the app's node_modules, run with node itself (no npx in between). */
  readonly cli: string;
  /** Its arguments to build the app. */
  readonly build: readonly string[];
  /** Its arguments to serve the built app on a loopback port. */
  readonly start: (port: number) => readonly string[];
}

export type Scenario = TscScenario | CliScenario;

/** Whether a scenario is a folder built by its framework's CLI. */
export function isCliScenario(scenario: Scenario): scenario is CliScenario {
  return 'fixtureDir' in scenario;
}

const NODE16 = { module: 'node16', moduleResolution: 'node16' };
const TYPES_NODE = { '@types/node': '^20.12.0' };
/** What `nest new` puts in a NestJS app's tsconfig: legacy decorators with their metadata. */
const NEST_DECORATORS = { experimentalDecorators: true, emitDecoratorMetadata: true };
const NEST_RUNTIME = { 'reflect-metadata': '^0.2.0', rxjs: '^7.8.0' };

/** A Next.js App Router app in TypeScript: `next build`, then `next start` on a loopback port. */
function nextScenario(major: 15 | 16, range: string): CliScenario {
  return {
    name: `next-${major}`,
    title: `Next.js ${major} App Router route handlers, TypeScript (next build, next start)`,
    fixtureDir: 'next-app',
    packageType: 'module',
    drops: ['@drops/auth'],
    dependencies: { next: range, react: '^19.2.0', 'react-dom': '^19.2.0' },
    // Next typechecks the app with the TypeScript the app installs.
    devDependencies: { ...TYPES_NODE, typescript: '~5.9.3', '@types/react': '^19.2.0', '@types/react-dom': '^19.2.0' },
    cli: 'next/dist/bin/next',
    build: ['build'],
    start: (port) => ['start', '--hostname', '127.0.0.1', '--port', String(port)],
  };
}

/**
 * The oldest Node that `engines` names (vitest itself cannot run there). The packed smoke suite
 * (scripts/node-matrix.mjs) runs the key flow, and the duplicated `Authorization` header, in
 * Express 4 and 5, Koa 2 and 3, Fastify 4 and 5 and Hono 4 on it; what it has no HTTP test of runs
 * here on it too: the NestJS app, and the CommonJS app (on every Node).
 */
const OLDEST_NODE = TESTED_NODE_VERSIONS[0]!;

/**
 * A NestJS app on one HTTP platform: one fixture (it takes platform-fastify when installed), so
 * the scenarios of a major differ only in the platform package. NestJS 12 is ESM only: a CommonJS
 * app require()s it (Node 20.19 and later; TypeScript allows it under nodenext), so it does not run
 * on the oldest Node.
 */
function nestScenario(major: 11 | 12, platform: 'express' | 'fastify'): TscScenario {
  const esmOnly = major >= 12;
  const module = esmOnly ? 'nodenext' : 'node16';
  const range = `^${major}.0.0`;
  return {
    name: `nestjs-${major}-${platform}`,
    title: `NestJS ${major} on platform-${platform}, CommonJS TypeScript with experimentalDecorators (module ${module})`,
    fixture: 'nestjs-app.ts',
    packageType: 'commonjs',
    drops: ['@drops/auth', '@drops/auth-nestjs'],
    dependencies: { '@nestjs/common': range, '@nestjs/core': range, [`@nestjs/platform-${platform}`]: range, ...NEST_RUNTIME },
    devDependencies: TYPES_NODE,
    compilerOptions: { module, moduleResolution: module, ...NEST_DECORATORS },
    ...(esmOnly ? {} : { alsoRunsOn: [OLDEST_NODE] }),
  };
}

/** Express 5, ESM: a scenario, and the project its global-body-parser variant runs too. */
const EXPRESS_5: TscScenario = {
  name: 'express-5',
  title: 'Express 5, ESM TypeScript (module node16; and typechecked under module esnext, moduleResolution bundler)',
  fixture: 'express-app.ts',
  packageType: 'module',
  drops: ['@drops/auth', '@drops/auth-express'],
  dependencies: { express: '^5.1.0' },
  devDependencies: { ...TYPES_NODE, '@types/express': '^5.0.0' },
  compilerOptions: NODE16,
  alsoTypecheckedUnder: { bundler: { module: 'esnext', moduleResolution: 'bundler' } },
};

/**
 * Existing apps, as they are found in the wild: the last two majors of Express and Koa, Fastify 4
 * and 5, Hono 4, NestJS 11 and 12, ESM TypeScript under both resolutions a service uses (`node16`,
 * `bundler`), a CommonJS app, an Express app with its own global body parsers, and Next.js 15 and
 * 16 App Router apps.
 */
export const SCENARIOS: readonly Scenario[] = [
  EXPRESS_5,
  {
    name: 'express-4',
    title: 'Express 4, ESM TypeScript (module node16)',
    fixture: 'express-app.ts',
    packageType: 'module',
    drops: ['@drops/auth', '@drops/auth-express'],
    dependencies: { express: '^4.17.3' },
    devDependencies: { ...TYPES_NODE, '@types/express': '^4.17.21' },
    compilerOptions: NODE16,
  },
  {
    name: 'koa-3',
    title: 'Koa 3 with @koa/router 15, ESM TypeScript (module node16)',
    fixture: 'koa-app.ts',
    packageType: 'module',
    drops: ['@drops/auth', '@drops/auth-koa'],
    dependencies: { koa: '^3.0.0', '@koa/router': '^15.0.0' },
    devDependencies: { ...TYPES_NODE, '@types/koa': '^3.0.0', '@types/koa__router': '^15.0.0' },
    compilerOptions: NODE16,
  },
  {
    name: 'koa-2',
    title: 'Koa 2 with @koa/router 12, ESM TypeScript (module node16)',
    fixture: 'koa-app.ts',
    packageType: 'module',
    drops: ['@drops/auth', '@drops/auth-koa'],
    dependencies: { koa: '^2.13.0', '@koa/router': '^12.0.0' },
    devDependencies: { ...TYPES_NODE, '@types/koa': '^2.13.0', '@types/koa__router': '^12.0.0' },
    compilerOptions: NODE16,
  },
  {
    name: 'fastify-5',
    title: 'Fastify 5, ESM TypeScript (module node16)',
    fixture: 'fastify-app.ts',
    packageType: 'module',
    drops: ['@drops/auth', '@drops/auth-fastify'],
    dependencies: { fastify: '^5.0.0' },
    devDependencies: TYPES_NODE,
    compilerOptions: NODE16,
  },
  {
    name: 'hono-4',
    title: 'Hono 4 on Node (@hono/node-server), ESM TypeScript (module node16)',
    fixture: 'hono-app.ts',
    packageType: 'module',
    drops: ['@drops/auth', '@drops/auth-hono'],
    dependencies: { hono: '^4.0.0', '@hono/node-server': '^2.0.0' },
    devDependencies: { ...TYPES_NODE },
    compilerOptions: NODE16,
  },
  {
    name: 'fastify-4',
    title: 'Fastify 4, ESM TypeScript (module node16)',
    fixture: 'fastify-app.ts',
    packageType: 'module',
    drops: ['@drops/auth', '@drops/auth-fastify'],
    dependencies: { fastify: '^4.26.0' },
    devDependencies: TYPES_NODE,
    compilerOptions: NODE16,
  },
  // Each NestJS major once and each HTTP platform once: the adapter is the same code on both.
  nestScenario(11, 'express'),
  nestScenario(12, 'fastify'),
  {
    name: 'commonjs',
    title: 'Express 5, CommonJS TypeScript compiled to require() (module node16)',
    fixture: 'commonjs-app.ts',
    packageType: 'commonjs',
    drops: ['@drops/auth', '@drops/auth-express'],
    dependencies: { express: '^5.1.0' },
    devDependencies: { ...TYPES_NODE, '@types/express': '^5.0.0' },
    compilerOptions: NODE16,
    alsoTypecheckedUnder: { node10: { module: 'commonjs', moduleResolution: 'node10' } },
    // require() of ESM differs most between Node versions: the CommonJS app runs on each of them.
    alsoRunsOn: TESTED_NODE_VERSIONS,
  },
  // The same project as express-5 (one install and compile), run with its own global body parsers.
  {
    ...EXPRESS_5,
    name: 'express-5-global-json',
    title: 'Express 5 with a global express.json() and express.urlencoded() before drops, ESM TypeScript (module node16)',
    options: ['global-body-parser'],
  },
  nextScenario(15, '^15.5.0'),
  nextScenario(16, '^16.4.0'),
];

/**
 * What a scenario's install and compile depend on: all of it but its names and run-time options.
 * Scenarios equal in it share one installed and compiled project.
 */
export function buildKeyOf(scenario: Scenario): string {
  const { name: _name, title: _title, options: _options, alsoRunsOn: _alsoRunsOn, ...build } = scenario;
  return JSON.stringify(build);
}
