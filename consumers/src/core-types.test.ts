// The core's published types on a runtime without Node's: the packed @drops/auth, installed with
// plain npm next to no `@types/node`, compiled (strict, skipLibCheck off, `types: []`) by the
// TypeScript 5 the repository uses and by the current major `npm i -D typescript` installs.
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packPackages } from './pack-packages.js';
import { runCommand } from './run-command.js';
import { npmInstall } from './scratch-project.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/core-types.ts', import.meta.url));

/** The TypeScripts it is compiled with: the repository's (5) and npm's latest, as package aliases. */
const COMPILERS = ['typescript-5', 'typescript-current'] as const;

let dir: string;

/** The major `npm i -D typescript` installs today. */
async function currentTypeScriptMajor(): Promise<string> {
  const { code, output } = await runCommand('npm', ['view', 'typescript', 'version'], { cwd: tmpdir() });
  if (code !== 0) throw new Error(`npm view typescript version failed:\n${output}`);
  // The output holds npm's warnings too (stderr): the version is the line that is one.
  const version = /^(\d+)\.\d+\.\d+$/m.exec(output);
  if (version === null) throw new Error(`npm view typescript version printed no version:\n${output}`);
  return version[1]!;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'drops-core-types-'));
  const tarballs = await packPackages(dir);
  const packageJson = {
    name: 'consumer-core-types',
    version: '1.0.0',
    private: true,
    type: 'module',
    dependencies: { '@drops/auth': `file:${tarballs['@drops/auth']}` },
    devDependencies: {
      'typescript-5': 'npm:typescript@~5.9.3',
      'typescript-current': `npm:typescript@^${await currentTypeScriptMajor()}`,
    },
  };
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
  const compilerOptions = {
    strict: true,
    target: 'ES2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    skipLibCheck: false,
    types: [],
    noEmit: true,
  };
  await writeFile(join(dir, 'tsconfig.json'), `${JSON.stringify({ compilerOptions, include: ['src'] }, null, 2)}\n`);
  await mkdir(join(dir, 'src'));
  await copyFile(FIXTURE, join(dir, 'src', 'app.ts'));
  const install = await npmInstall({ dir });
  if (install.code !== 0) throw new Error(`npm install failed:\n${install.output}`);
});

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('the core typed for every runtime: no @types/node', () => {
  it.each(COMPILERS)('compiles under %s with no diagnostic', async (compiler) => {
    const { code, output } = await runCommand(
      process.execPath,
      [join(dir, 'node_modules', compiler, 'bin', 'tsc'), '-p', '.', '--pretty', 'false'],
      {
        cwd: dir,
      },
    );
    expect(output).toBe('');
    expect(code).toBe(0);
  });
});
