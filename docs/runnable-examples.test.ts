/**
 * Runs every code block fenced as ```ts runnable in docs/*.md, the root README and the package
 * READMEs, so the examples people copy are the ones that work. Each block is written to a module
 * beside the docs (so it resolves the workspace packages like a user's code would), typechecked
 * with the others under strict TypeScript, and imported; a block asserts with node:assert.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const docsDir = dirname(fileURLToPath(import.meta.url));
const root = join(docsDir, '..');
const scratch = join(docsDir, '.tmp');
const FENCE = /```ts runnable\n([\s\S]*?)```/g;
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const sources = [
  ...readdirSync(docsDir)
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(docsDir, f)),
  join(root, 'README.md'),
  ...['auth', 'postgres', 'express', 'koa'].map((p) => join(root, 'packages', p, 'README.md')),
];

interface Example {
  readonly name: string;
  readonly module: string;
  readonly code: string;
}

const examples: Example[] = sources.flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(FENCE)].map((m, index) => {
    const name = `${relative(root, file)} example ${index + 1}`;
    return { name, module: join(scratch, `${name.replace(/\W+/g, '_')}.ts`), code: m[1] ?? '' };
  }),
);

describe('runnable examples in the docs and READMEs', () => {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  for (const example of examples) writeFileSync(example.module, example.code);
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('has runnable examples to run, in the core package README too', () => {
    expect(examples.length).toBeGreaterThanOrEqual(6);
    expect(examples.some((e) => e.name.startsWith('packages/auth/README.md'))).toBe(true);
  });

  it('typechecks every example under strict TypeScript', async () => {
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({ extends: '../../tsconfig.base.json', compilerOptions: { noEmit: true }, include: ['*.ts'] }),
    );
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', scratch]).catch(
      (error: { stdout: string }) => error,
    );
    expect(result.stdout).toBe('');
  }, 60_000);

  for (const example of examples) {
    it(`${example.name} runs`, async () => {
      await import(pathToFileURL(example.module).href);
    });
  }
});
