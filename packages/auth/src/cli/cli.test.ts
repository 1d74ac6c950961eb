/**
 * Runs the built `drops-auth` binary (`dist/cli.js`; `pnpm build` first) on temporary files, and
 * checks that no output ever contains a secret.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../api-key/generate-api-key.js';
import { keyIdOf } from '../api-key/key-id.js';
import { BUILT_CLI as CLI } from './test-spawn-cli.js';

const packageDir = fileURLToPath(new URL('../../', import.meta.url));

const secrets = Array.from({ length: 4 }, () => generateApiKey().secret);
const [k1, k2, k3, k4] = secrets as [string, string, string, string];

let tmp: string;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(args: readonly string[], options: { input?: string; cwd?: string } = {}): Run {
  const result: SpawnSyncReturns<string> = spawnSync(process.execPath, [CLI, ...args], {
    input: options.input ?? '',
    cwd: options.cwd ?? tmp,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
  });
  const out = { status: result.status, stdout: result.stdout, stderr: result.stderr };
  for (const secret of secrets) {
    expect(out.stdout).not.toContain(secret);
    expect(out.stderr).not.toContain(secret);
  }
  return out;
}

function git(cwd: string, ...args: string[]): void {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
}

async function write(path: string, content: string | Buffer): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content);
}

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run pnpm build in packages/auth first`);
  tmp = await mkdtemp(join(tmpdir(), 'drops-auth-cli-'));
});

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('drops-auth', () => {
  it('prints help, and usage with status 2 when called without a command', () => {
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Usage: drops-auth <command>/);
    expect(help.stdout).toContain('key-id');
    expect(help.stdout).toContain('scan <paths...>');
    expect(help.stdout).toContain('revoke --url <base> [files]');
    expect(help.stdout).toContain('keys roll <id> --url <base>');
    const bare = run([]);
    expect(bare.status).toBe(2);
    expect(bare.stderr).toMatch(/Usage: drops-auth/);
  });

  it('answers an unknown command with status 2', () => {
    const result = run(['frobnicate']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('unknown command "frobnicate"');
  });

  it('never echoes a secret passed where a command goes', () => {
    const result = run([k1]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('hp_[redacted]');
  });

  it('prints its version', () => {
    expect(run(['--version']).stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('drops-auth key-id', () => {
  it('has --help, also as drops-auth help key-id', () => {
    for (const args of [
      ['key-id', '--help'],
      ['key-id', '-h'],
      ['help', 'key-id'],
    ]) {
      const result = run(args);
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/Usage: drops-auth key-id/);
    }
  });

  it('reads the secret on stdin and prints its id and prefix', () => {
    const result = run(['key-id'], { input: `${k1}\n` });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`id      ${keyIdOf(k1)}\nprefix  ${k1.slice(0, 10)}\n`);
  });

  it('accepts surrounding whitespace (CRLF, a pasted space) and prints JSON with --json', () => {
    const result = run(['key-id', '--json'], { input: `  ${k2}\r\n` });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ id: keyIdOf(k2), prefix: k2.slice(0, 10) });
  });

  it('refuses malformed input with status 1 and a clear message that does not echo it', () => {
    const cases = ['', 'hello', k1.slice(0, 45), `${k1}A`, `${k1}\n${k2}`, `Bearer ${k1}`, 'x'.repeat(10_000)];
    for (const input of cases) {
      const result = run(['key-id'], { input });
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('not a drops API key');
      if (input.length > 0) expect(result.stderr).not.toContain(input);
    }
  });

  it('refuses a secret in argv with status 2, without printing it', () => {
    const result = run(['key-id', k3]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('never from arguments');
    const asOption = run(['key-id', `--key=${k3}`]);
    expect(asOption.status).toBe(2);
  });
});

describe('drops-auth scan', () => {
  let repo: string;
  let plain: string;

  beforeAll(async () => {
    repo = join(tmp, 'repo');
    await mkdir(repo);
    git(repo, 'init', '-q');
    await write(join(repo, '.gitignore'), 'secrets.env\nbuild/\n');
    await write(join(repo, 'src', 'config.ts'), `export const config = {\n  apiKey: '${k1}',\n};\n`);
    await write(join(repo, 'src', 'deep', 'ci.yml'), `env:\n  A: ${k2}\n  B: "${k3}" # twice: ${k2}\n`);
    await write(join(repo, 'README.md'), 'Keys look like hp_ followed by 43 characters.\n');
    await write(
      join(repo, 'near-misses.txt'),
      [
        `x${k4}`, // glued to a base64url character before
        `${k4}x`, // and after
        k4.slice(0, 45), // too short
        `hp_${'A'.repeat(42)}B`, // a last character 32 bytes cannot produce
      ].join('\n'),
    );
    await write(join(repo, 'secrets.env'), `DROPS_API_KEY=${k4}\n`);
    await write(join(repo, 'build', 'out.js'), `const k = "${k4}";\n`);
    await write(join(repo, 'node_modules', 'dep', 'index.js'), `module.exports = "${k4}";\n`);
    await write(join(repo, 'image.bin'), Buffer.concat([Buffer.from([0x89, 0x50, 0x00, 0x01]), Buffer.from(k4)]));
    await symlink(join(repo, 'secrets.env'), join(repo, 'link-to-secrets.env'));

    plain = join(tmp, 'plain');
    await write(join(plain, '.gitignore'), 'secrets.env\n');
    await write(join(plain, 'secrets.env'), `DROPS_API_KEY=${k4}\n`);
    await write(join(plain, 'node_modules', 'dep', 'index.js'), `module.exports = "${k4}";\n`);
    await write(join(plain, '.git', 'config'), `# not a repository, but never scanned: ${k4}\n`);
    await write(join(plain, 'clean.txt'), 'nothing to see\n');
  });

  it('has --help', () => {
    const result = run(['scan', '--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/Usage: drops-auth scan/);
  });

  it('finds keys recursively: file:line:column, prefix and id; exit 1', () => {
    const result = run(['scan', '.'], { cwd: repo });
    expect(result.status).toBe(1);
    expect(result.stdout.trim().split('\n')).toEqual([
      `src/config.ts:2:12  prefix ${k1.slice(0, 10)}  id ${keyIdOf(k1)}`,
      `src/deep/ci.yml:2:6  prefix ${k2.slice(0, 10)}  id ${keyIdOf(k2)}`,
      `src/deep/ci.yml:3:7  prefix ${k3.slice(0, 10)}  id ${keyIdOf(k3)}`,
      `src/deep/ci.yml:3:64  prefix ${k2.slice(0, 10)}  id ${keyIdOf(k2)}`,
    ]);
    expect(result.stderr).toContain('found 4 API keys in 2 files');
  });

  it('skips git-ignored files and directories, node_modules, binary files and symlinks', () => {
    const result = run(['scan', repo]);
    expect(result.stdout).not.toContain(keyIdOf(k4));
    expect(result.stdout).toContain(join(repo, 'src', 'config.ts'));
  });

  it('says how many paths it skipped, and why: a git-ignored .env is where keys leak', () => {
    const result = run(['scan', '.'], { cwd: repo });
    // secrets.env and build/ (ignored), node_modules and .git, the symbolic link, image.bin.
    expect(result.stderr).toContain(
      'Skipped 2 git-ignored paths (name a file to scan it anyway), 2 node_modules or .git directories, 1 symbolic link or special file, 1 binary file.',
    );
    const clean = run(['scan', 'clean.txt'], { cwd: plain });
    expect(clean.stderr).toBe('drops-auth scan: no API keys found in 1 file.\n');
  });

  it('scans a file named explicitly, even an ignored one', () => {
    const result = run(['scan', 'secrets.env', 'src/config.ts'], { cwd: repo });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`secrets.env:1:15  prefix ${k4.slice(0, 10)}  id ${keyIdOf(k4)}`);
    expect(result.stdout).toContain('src/config.ts:2:12');
  });

  it('still skips binary files named explicitly', () => {
    const result = run(['scan', 'image.bin'], { cwd: repo });
    expect(result.status).toBe(0);
  });

  it('prints one JSON object per finding with --json', () => {
    const result = run(['scan', '--json', 'src/config.ts'], { cwd: repo });
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      file: 'src/config.ts',
      line: 2,
      column: 12,
      prefix: k1.slice(0, 10),
      id: keyIdOf(k1),
    });
  });

  it('outside git: no .gitignore rules, but node_modules and .git are still skipped', () => {
    const result = run(['scan', '.'], { cwd: plain });
    expect(result.status).toBe(1);
    expect(result.stdout.trim().split('\n')).toEqual([`secrets.env:1:15  prefix ${k4.slice(0, 10)}  id ${keyIdOf(k4)}`]);
  });

  it('exits 0 when clean', () => {
    const result = run(['scan', 'clean.txt', join(repo, 'README.md')], { cwd: plain });
    expect(result).toMatchObject({ status: 0, stdout: '' });
    expect(result.stderr).toContain('no API keys found in 2 files');
  });

  it('exits 2 on usage errors: no path, a missing path, an unknown option', () => {
    expect(run(['scan']).status).toBe(2);
    const missing = run(['scan', 'does-not-exist']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no such file or directory: does-not-exist');
    expect(run(['scan', '--nope', '.']).status).toBe(2);
  });
});

describe('installed as a bin', () => {
  it('runs as `drops-auth` through a node_modules/.bin link', async () => {
    const project = join(tmp, 'project');
    await mkdir(join(project, 'node_modules', '@drops'), { recursive: true });
    await mkdir(join(project, 'node_modules', '.bin'));
    await symlink(packageDir, join(project, 'node_modules', '@drops', 'auth'), 'dir');
    await symlink(join('..', '@drops', 'auth', 'dist', 'cli.js'), join(project, 'node_modules', '.bin', 'drops-auth'));
    const result = spawnSync('drops-auth', ['key-id'], {
      cwd: project,
      input: k1,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${join(project, 'node_modules', '.bin')}${delimiter}${process.env['PATH'] ?? ''}` },
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(keyIdOf(k1));
    expect(result.stdout).not.toContain(k1);
  });
});
