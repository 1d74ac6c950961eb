/**
 * `drops-auth scan` on a directory an attacker wrote (an extracted archive, a cloned repository):
 * nothing in it makes the scanner run a program. The built binary is spawned with a `git` on its
 * PATH that leaves a mark when it runs, and the scanned repository's own `.git/config` names a
 * `core.fsmonitor` program and a hooks directory that leave marks too: after the scan, no mark.
 * The ignore rules (`.gitignore` at every level, `.git/info/exclude`) are still honoured.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../api-key/generate-api-key.js';
import { keyIdOf } from '../api-key/key-id.js';
import { BUILT_CLI } from './test-spawn-cli.js';

const found = generateApiKey().secret;
const ignored = generateApiKey().secret;

let tmp: string;
let repo: string;
let marks: string;
let fakeBin: string;

async function write(path: string, content: string): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content);
}

/** A shell script that appends `name` to the marks file and exits 0. */
async function marker(path: string, name: string): Promise<void> {
  await write(path, `#!/bin/sh\necho ${name} >> '${join(marks, 'ran')}'\nexit 0\n`);
  await chmod(path, 0o755);
}

function git(cwd: string, ...args: string[]): void {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
}

/** The built CLI, with the marking `git` first on its PATH. */
function scan(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [BUILT_CLI, 'scan', ...args], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${fakeBin}${delimiter}${process.env['PATH'] ?? ''}` },
  });
  expect(result.stdout + result.stderr).not.toContain(found);
  expect(result.stdout + result.stderr).not.toContain(ignored);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run pnpm build in packages/auth first`);
  tmp = await mkdtemp(join(tmpdir(), 'drops-auth-scan-evil-'));
  marks = join(tmp, 'marks');
  await mkdir(marks);
  repo = join(tmp, 'extracted');
  await mkdir(repo);
  git(repo, 'init', '-q');
  await marker(join(repo, '.git', 'evil-fsmonitor'), 'fsmonitor');
  for (const hook of ['pre-commit', 'post-checkout', 'post-index-change', 'reference-transaction', 'fsmonitor-watchman']) {
    await marker(join(repo, '.git', 'evil-hooks', hook), `hook-${hook}`);
  }
  git(repo, 'config', 'core.fsmonitor', join(repo, '.git', 'evil-fsmonitor'));
  git(repo, 'config', 'core.hooksPath', join(repo, '.git', 'evil-hooks'));
  // Whatever runs `git` from the PATH leaves a mark too (then does what git would).
  fakeBin = join(tmp, 'bin');
  const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  await write(join(fakeBin, 'git'), `#!/bin/sh\necho git >> '${join(marks, 'ran')}'\nexec '${realGit}' "$@"\n`);
  await chmod(join(fakeBin, 'git'), 0o755);

  await write(join(repo, '.gitignore'), 'secrets.env\nbuild/\n*.log\n!keep.log\n');
  await write(join(repo, '.git', 'info', 'exclude'), 'local-only.txt\n');
  await write(join(repo, 'src', 'config.ts'), `export const key = '${found}';\n`);
  await write(join(repo, 'secrets.env'), `DROPS_API_KEY=${ignored}\n`);
  await write(join(repo, 'local-only.txt'), `${ignored}\n`);
  await write(join(repo, 'src', 'build', 'out.js'), `"${ignored}"\n`);
  await write(join(repo, 'src', 'debug.log'), `${ignored}\n`);
  await write(join(repo, 'src', 'keep.log'), `${found}\n`);
  await write(join(repo, 'src', 'nested', '.gitignore'), '/generated.ts\n!secrets.env\n');
  await write(join(repo, 'src', 'nested', 'generated.ts'), `${ignored}\n`);
  await write(join(repo, 'src', 'nested', 'secrets.env'), `${found}\n`);
  await write(join(repo, 'src', 'nested', 'deeper', 'generated.ts'), `${found}\n`);
});

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('drops-auth scan of a directory whose .git/config names programs', () => {
  it('runs no program: no git, no core.fsmonitor command, no hook', () => {
    const result = scan('.');
    expect(result.status).toBe(1);
    expect(existsSync(join(marks, 'ran'))).toBe(false);
  });

  it('still honours .gitignore at every level (negations too) and .git/info/exclude', () => {
    const result = scan('.');
    expect(result.stdout.trim().split('\n')).toEqual([
      `src/config.ts:1:21  prefix ${found.slice(0, 10)}  id ${keyIdOf(found)}`,
      `src/keep.log:1:1  prefix ${found.slice(0, 10)}  id ${keyIdOf(found)}`,
      `src/nested/deeper/generated.ts:1:1  prefix ${found.slice(0, 10)}  id ${keyIdOf(found)}`,
      `src/nested/secrets.env:1:1  prefix ${found.slice(0, 10)}  id ${keyIdOf(found)}`,
    ]);
  });

  it('applies the rules of the directories above a scanned subdirectory', () => {
    const result = scan(join(repo, 'src'));
    expect(result.stdout).not.toContain(keyIdOf(ignored));
    expect(result.stdout).toContain(join(repo, 'src', 'nested', 'secrets.env'));
    expect(existsSync(join(marks, 'ran'))).toBe(false);
  });
});
