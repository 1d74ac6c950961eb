import { copyFile, cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand, type CommandResult } from './run-command.js';
import { isCliScenario, type CliScenario, type DropsPackage, type Scenario } from './scenarios.js';
import { scratchEnv } from './scratch-env.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** What every scratch app's tsconfig.json holds besides its module system: strict, as apps are. */
const SHARED_COMPILER_OPTIONS = {
  strict: true,
  target: 'ES2022',
  esModuleInterop: true,
  // Check the shipped .d.ts files too: a consumer with skipLibCheck off must not see an error in them.
  skipLibCheck: false,
  types: ['node'],
  rootDir: 'src',
  outDir: 'dist',
};

/** A scratch project on disk: where it is, and the app's compiled entry point (a CLI app: the CLI's script). */
export interface ScratchProject {
  readonly dir: string;
  readonly entry: string;
}

/**
 * Writes a scratch project that plays an existing app: a package.json with the @drops tarballs
 * and the scenario's registry packages, a strict tsconfig.json, and the fixture as `src/app.ts`;
 * or, for an app its framework's CLI builds, the fixture folder as it is (its own tsconfig.json).
 *
 * @example
 * ```ts
 * const project = await writeScratchProject(join(tmp, scenario.name), scenario, tarballs);
 * ```
 */
export async function writeScratchProject(
  dir: string,
  scenario: Scenario,
  tarballs: Readonly<Record<DropsPackage, string>>,
): Promise<ScratchProject> {
  await mkdir(dir, { recursive: true });
  const drops = Object.fromEntries(scenario.drops.map((name) => [name, `file:${tarballs[name]}`]));
  const packageJson = {
    name: `consumer-${scenario.name}`,
    version: '1.0.0',
    private: true,
    type: scenario.packageType,
    dependencies: { ...drops, ...scenario.dependencies },
    devDependencies: scenario.devDependencies,
  };
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
  if (isCliScenario(scenario)) {
    await cp(join(FIXTURES, scenario.fixtureDir), dir, { recursive: true });
    return { dir, entry: join(dir, 'node_modules', scenario.cli) };
  }
  await mkdir(join(dir, 'src'));
  const tsconfig = { compilerOptions: { ...SHARED_COMPILER_OPTIONS, ...scenario.compilerOptions }, include: ['src'] };
  await writeFile(join(dir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  for (const [name, compilerOptions] of Object.entries(scenario.alsoTypecheckedUnder ?? {})) {
    const variant = { extends: './tsconfig.json', compilerOptions: { ...compilerOptions, noEmit: true } };
    await writeFile(join(dir, `tsconfig.${name}.json`), `${JSON.stringify(variant, null, 2)}\n`);
  }
  await copyFile(join(FIXTURES, scenario.fixture), join(dir, 'src', 'app.ts'));
  return { dir, entry: join(dir, 'dist', 'app.js') };
}

/**
 * `npm install` as a new user runs it: plain npm, no workspace link, no `--legacy-peer-deps`.
 * `--prefer-offline` reuses npm's shared cache, so only the first run on a machine downloads.
 */
export function npmInstall(project: Pick<ScratchProject, 'dir'>): Promise<CommandResult> {
  return runCommand('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: project.dir });
}

/**
 * Builds an app with its framework's CLI (e.g. `next build`, which typechecks it with the app's own
 * TypeScript), run with node itself. `env` is added to the test's environment.
 *
 * @example
 * ```ts
 * const { code, output } = await buildWithCli(project, scenario, { DROPS_IDP_ISSUER: idp.issuer });
 * ```
 */
export function buildWithCli(project: ScratchProject, scenario: CliScenario, env: NodeJS.ProcessEnv): Promise<CommandResult> {
  return runCommand(process.execPath, [project.entry, ...scenario.build], { cwd: project.dir, env: scratchEnv(env) });
}
