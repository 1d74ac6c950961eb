// Every bin of a published package is a file committed to the repository, never a build output: a
// package manager links bins at install time, so in a fresh clone (nothing built yet) a bin into
// dist/ is a "Failed to create bin" warning and no command until a second install.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every bin of every package under packages/: its package, name and path from the repository root. */
function bins(): Array<readonly [pkg: string, name: string, path: string]> {
  return readdirSync(join(REPO_ROOT, 'packages')).flatMap((dir) => {
    const { name, bin } = JSON.parse(readFileSync(join(REPO_ROOT, 'packages', dir, 'package.json'), 'utf8')) as {
      name: string;
      bin?: Record<string, string>;
    };
    return Object.entries(bin ?? {}).map(([command, target]) => [name, command, join('packages', dir, target)] as const);
  });
}

describe('bins exist before the build', () => {
  it('finds the bins', () => {
    expect(bins().map(([, command]) => command)).toEqual(expect.arrayContaining(['drops-auth', 'drops-auth-postgres']));
  });

  it.each(bins())('%s: %s is a committed, executable script that runs the built CLI', (_pkg, _command, path) => {
    expect(path).not.toMatch(/[/\\]dist[/\\]/);
    // Tracked by git, with the executable bit (mode 100755).
    expect(execFileSync('git', ['ls-files', '--stage', '--', path], { cwd: REPO_ROOT, encoding: 'utf8' })).toMatch(/^100755 /);
    const text = readFileSync(join(REPO_ROOT, path), 'utf8');
    expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(text).toContain("import '../dist/cli.js';");
  });
});
