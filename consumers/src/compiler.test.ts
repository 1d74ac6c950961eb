// The warm compiler answers as `tsc -p <tsconfig> --pretty false` does: the same diagnostics, the
// same exit code, the same emit.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCompiler, type Compiler } from './compiler.js';
import { runCommand } from './run-command.js';

const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const COMPILER_OPTIONS = {
  strict: true,
  target: 'ES2022',
  module: 'node16',
  moduleResolution: 'node16',
  types: [],
  rootDir: 'src',
  outDir: 'dist',
};

let root: string;
let compiler: Compiler;

/** A project of one `src/app.ts`, with a tsconfig.json and a no-emit variant. */
async function project(name: string, source: string): Promise<{ dir: string }> {
  const dir = join(root, name);
  await mkdir(join(dir, 'src'), { recursive: true });
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: COMPILER_OPTIONS, include: ['src'] }));
  await writeFile(join(dir, 'tsconfig.check.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: true } }));
  await writeFile(join(dir, 'src', 'app.ts'), source);
  return { dir };
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'drops-compiler-'));
  compiler = startCompiler();
});

afterAll(async () => {
  await compiler?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('startCompiler', () => {
  it('compiles a clean project with no output, exit 0, and writes its JavaScript', async () => {
    const clean = await project('clean', 'export const answer: number = 42;\n');
    expect(await compiler.compile(clean)).toEqual({ code: 0, output: '' });
    expect(existsSync(join(clean.dir, 'dist', 'app.js'))).toBe(true);
  });

  it('reports a type error as tsc does, byte for byte, with its exit code', async () => {
    const broken = await project('broken', 'const a: number = "one";\nconst b: string = 2;\nexport { a, b };\n');
    const tsc = await runCommand(process.execPath, [TSC, '-p', 'tsconfig.check.json', '--pretty', 'false'], { cwd: broken.dir });
    const warm = await compiler.compile(broken, 'tsconfig.check.json');
    expect(warm.output).toContain("src/app.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.");
    expect(warm).toEqual(tsc);
  });

  it("fails on a tsconfig it cannot read, naming it, with tsc's exit code", async () => {
    const dir = join(root, 'clean');
    const tsc = await runCommand(process.execPath, [TSC, '-p', 'tsconfig.nowhere.json', '--pretty', 'false'], { cwd: dir });
    const warm = await compiler.compile({ dir }, 'tsconfig.nowhere.json');
    expect(warm.output).toContain('tsconfig.nowhere.json');
    expect(warm.code).toBe(tsc.code);
    expect(warm.code).not.toBe(0);
  });

  it('rejects a compile asked for once it is closed', async () => {
    const closed = startCompiler();
    await closed.close();
    await expect(closed.compile({ dir: join(root, 'clean') })).rejects.toThrow('the compiler process has ended');
  });
});
