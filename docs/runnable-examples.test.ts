/**
 * Every TypeScript example in the repository's Markdown (docs/, the READMEs) is checked, so the
 * examples people copy are the ones that work. A code block is fenced as one of:
 *
 * - ```ts runnable: typechecked under strict TypeScript, then imported (run); it asserts with
 *   node:assert, or its harness asserts for it.
 * - ```ts compile-only: typechecked only, for code that cannot run in a test (it needs a test
 *   runner's own collection phase, say).
 *
 * `harness=<name>` runs the block inside docs/harness/<name>.ts (a hidden prelude and the checks
 * after it), `plain-js` also checks that the block is plain JavaScript (a README that says "save as
 * app.mjs"). docs/harness/README.md describes both. A ```ts, ```js (or similar) block with neither
 * mode fails the test, and so does an unknown attribute or harness.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { runAfterExample } from './harness/support.js';

const docsDir = dirname(fileURLToPath(import.meta.url));
const root = join(docsDir, '..');
const harnessDir = join(docsDir, 'harness');
const scratch = join(docsDir, '.tmp');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** Where the block goes in a harness file: a line of its own. */
const PLACEHOLDER = '// <<example>>';
/** Fence languages that hold TypeScript or JavaScript: each such block must be checked. */
const CODE_LANGUAGES = new Set(['ts', 'typescript', 'tsx', 'mts', 'cts', 'js', 'javascript', 'jsx', 'mjs', 'cjs']);
const MODES = new Set(['runnable', 'compile-only']);
/** Folders with no Markdown of ours in them. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.tmp', '.git', '.data', 'coverage', '.changeset']);

/** One fenced code block of TypeScript or JavaScript, as found in a Markdown file. */
interface CodeBlock {
  /** `docs/adapters.md:67`: the file and the line of the opening fence. */
  readonly where: string;
  readonly file: string;
  /** Line number of the block's first line of code. */
  readonly firstLine: number;
  readonly info: string;
  readonly code: string;
}

/** A block fenced with a mode, and where its assembled module is written. */
interface Example extends CodeBlock {
  readonly mode: 'runnable' | 'compile-only';
  readonly harness: string | undefined;
  readonly module: string;
  /** How lines of the module map back to the Markdown file and the harness (for tsc's errors). */
  readonly segments: readonly Segment[];
}

/** Lines `[start, start + count)` of an assembled module come from `file`, from line `fileLine` on. */
interface Segment {
  readonly start: number;
  readonly count: number;
  readonly file: string;
  readonly fileLine: number;
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : markdownFiles(join(dir, entry.name));
    return entry.name.endsWith('.md') && entry.name !== 'CHANGELOG.md' ? [join(dir, entry.name)] : [];
  });
}

/** A closing fence: the opening fence's character, at least as many, and nothing else. */
function isClosingFence(line: string, fence: string): boolean {
  const trimmed = line.trim();
  return trimmed.length >= fence.length && trimmed === (fence[0] ?? '`').repeat(trimmed.length);
}

function codeBlocksOf(file: string): CodeBlock[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(\S.*)?$/.exec(lines[i] ?? '');
    // A backtick fence's info string has no backtick (CommonMark): ```` ```ts ```` is inline code.
    if (!open || (open[2]?.startsWith('`') && open[3]?.includes('`'))) continue;
    const [, indent = '', fence = '```', info = ''] = open;
    let end = i + 1;
    while (end < lines.length && !isClosingFence(lines[end] ?? '', fence)) end++;
    const language = info.trim().split(/\s+/)[0] ?? '';
    if (CODE_LANGUAGES.has(language)) {
      const code = lines.slice(i + 1, end).map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line));
      const where = `${relative(root, file)}:${i + 1}`;
      blocks.push({ where, file, firstLine: i + 2, info: info.trim(), code: `${code.join('\n')}\n` });
    }
    i = end;
  }
  return blocks;
}

const blocks = markdownFiles(root).flatMap(codeBlocksOf);

/** Why a block's fence is not one the test knows how to check, or null if it is. */
function fenceProblem(block: CodeBlock): string | null {
  const [language, mode, ...attributes] = block.info.split(/\s+/);
  if (language !== 'ts' || mode === undefined || !MODES.has(mode)) {
    return `${block.where}: fenced \`${block.info}\`; use \`ts runnable\` or \`ts compile-only\` (docs/harness/README.md)`;
  }
  for (const attribute of attributes) {
    const harness = /^harness=([\w-]+)$/.exec(attribute)?.[1];
    if (harness !== undefined && !existsSync(join(harnessDir, `${harness}.ts`))) {
      return `${block.where}: no harness docs/harness/${harness}.ts`;
    }
    if (harness === undefined && attribute !== 'plain-js') return `${block.where}: unknown attribute \`${attribute}\``;
  }
  return null;
}

function assemble(block: CodeBlock): Example {
  const [, mode, ...attributes] = block.info.split(/\s+/);
  const harness = attributes.map((a) => /^harness=([\w-]+)$/.exec(a)?.[1]).find((name) => name !== undefined);
  const module = join(scratch, `${block.where.replace(/\W+/g, '_')}.ts`);
  const blockLines = block.code.split('\n').length - 1;
  let code = block.code;
  let segments: Segment[] = [{ start: 1, count: blockLines, file: block.file, fileLine: block.firstLine }];
  if (harness !== undefined) {
    const harnessFile = join(harnessDir, `${harness}.ts`);
    const harnessLines = readFileSync(harnessFile, 'utf8').split('\n');
    const at = harnessLines.indexOf(PLACEHOLDER);
    code = [...harnessLines.slice(0, at), block.code.trimEnd(), ...harnessLines.slice(at + 1)].join('\n');
    segments = [
      { start: 1, count: at, file: harnessFile, fileLine: 1 },
      { start: at + 1, count: blockLines, file: block.file, fileLine: block.firstLine },
      { start: at + 1 + blockLines, count: harnessLines.length - at - 1, file: harnessFile, fileLine: at + 2 },
    ];
  }
  writeFileSync(module, code);
  if (attributes.includes('plain-js')) writeFileSync(module.replace(/\.ts$/, '.plain.mjs'), block.code);
  return {
    ...block,
    mode: mode === 'runnable' ? 'runnable' : 'compile-only',
    harness,
    module,
    segments,
  };
}

/** Rewrites tsc's `docs/.tmp/<module>.ts(12,5): error ...` to the Markdown file or harness line. */
function locateDiagnostics(output: string, examples: readonly Example[]): string {
  return output.replace(/^(\S+?)\((\d+),(\d+)\)/gm, (whole, path: string, line: string, column: string) => {
    const file = join(root, path);
    const plainJs = file.endsWith('.plain.mjs');
    const example = examples.find((e) => file === (plainJs ? e.module.replace(/\.ts$/, '.plain.mjs') : e.module));
    if (example === undefined) return whole;
    const n = Number(line);
    // The plain-js copy is the block alone; the module may be a harness around it.
    const segments = plainJs ? [{ start: 1, count: Infinity, file: example.file, fileLine: example.firstLine }] : example.segments;
    const segment = segments.find((s) => n >= s.start && n < s.start + s.count);
    if (segment === undefined) return whole;
    const as = plainJs ? ', as JavaScript' : '';
    return `${relative(root, segment.file)}:${segment.fileLine + n - segment.start}:${column} (${example.where}${as})`;
  });
}

describe('TypeScript examples in the docs and READMEs', () => {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  const examples = blocks.filter((block) => fenceProblem(block) === null).map(assemble);
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('checks every ```ts and ```js block: each is `ts runnable` or `ts compile-only`', () => {
    expect(blocks.map(fenceProblem).filter((problem) => problem !== null)).toEqual([]);
    expect(examples.filter((e) => e.mode === 'runnable').length).toBeGreaterThanOrEqual(20);
    expect(examples.some((e) => e.where.startsWith('packages/auth/README.md'))).toBe(true);
  });

  it('uses every harness in docs/harness/, and each has one place for its example', () => {
    const harnesses = readdirSync(harnessDir)
      .filter((f) => f.endsWith('.ts') && f !== 'support.ts')
      .map((f) => f.slice(0, -'.ts'.length));
    for (const name of harnesses) {
      const lines = readFileSync(join(harnessDir, `${name}.ts`), 'utf8').split('\n');
      expect(
        lines.filter((line) => line === PLACEHOLDER),
        `docs/harness/${name}.ts`,
      ).toHaveLength(1);
    }
    expect(harnesses.filter((name) => !examples.some((e) => e.harness === name))).toEqual([]);
  });

  it('typechecks every example under strict TypeScript (and each plain-js one as JavaScript too)', async () => {
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        extends: '../../tsconfig.base.json',
        // allowJs without checkJs: a .plain.mjs copy fails only on TypeScript-only syntax.
        // Legacy decorators, as NestJS apps compile them (docs/adapters.md, NestJS); no other example has any.
        compilerOptions: { noEmit: true, allowJs: true, checkJs: false, experimentalDecorators: true, emitDecoratorMetadata: true },
        include: ['*.ts', '*.mjs'],
      }),
    );
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', relative(root, scratch), '--pretty', 'false'], {
      cwd: root,
    }).catch((error: { stdout: string }) => error);
    expect(locateDiagnostics(result.stdout, examples)).toBe('');
  }, 120_000);

  for (const example of examples.filter((e) => e.mode === 'runnable')) {
    it(`${example.where} runs${example.harness ? ` (in docs/harness/${example.harness}.ts)` : ''}`, async () => {
      try {
        const module = (await import(pathToFileURL(example.module).href)) as { checkExports?: (self: unknown) => Promise<void> };
        // A harness whose example is a module to be called (a Worker) checks its exports.
        await module.checkExports?.(module);
      } finally {
        await runAfterExample();
      }
    });
  }
});
