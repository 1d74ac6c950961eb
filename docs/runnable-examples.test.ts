/**
 * Runs every code block fenced as ```ts runnable in docs/*.md, so the examples people copy are
 * the ones that work. Each block is written to a module beside the docs (so it resolves the
 * workspace packages like a user's code would) and imported; a block asserts with node:assert.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const docsDir = dirname(fileURLToPath(import.meta.url));
const scratch = join(docsDir, '.tmp');
const FENCE = /```ts runnable\n([\s\S]*?)```/g;

function runnableBlocks(file: string): string[] {
  return [...readFileSync(join(docsDir, file), 'utf8').matchAll(FENCE)].map((m) => m[1] ?? '');
}

const files = readdirSync(docsDir).filter((f) => f.endsWith('.md'));

describe('runnable examples in docs/', () => {
  mkdirSync(scratch, { recursive: true });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('has runnable examples to run', () => {
    expect(files.flatMap(runnableBlocks).length).toBeGreaterThanOrEqual(3);
  });

  for (const file of files) {
    runnableBlocks(file).forEach((code, index) => {
      it(`${file} example ${index + 1} runs`, async () => {
        const module = join(scratch, `${file.replace(/\W/g, '_')}-${index + 1}.ts`);
        writeFileSync(module, code);
        await import(pathToFileURL(module).href);
      });
    });
  }
});
