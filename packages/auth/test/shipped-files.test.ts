/**
 * What the published packages ship (their built dist/, README.md, LICENSE and package.json)
 * holds up on npm: a licence, where the code lives, links that work outside the repo, no
 * comment citing a file that does not ship, no unused entry, no source embedded in the maps.
 * Runs against dist/: `pnpm build` first (as `pnpm test` does).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packagesDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PACKAGES = ['auth', 'postgres', 'express', 'koa', 'fastify', 'hono', 'nestjs'];
const REPOSITORY = 'https://github.com/drops-dev/drops-auth';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((file) => join(dir, file));
}

describe('packages/auth dependencies', () => {
  it('needs no jose at run time (ESM only: require failed before Node 20.19) and no test-runner peer (npm crashed on it for vitest 1 and 2)', () => {
    const manifest = JSON.parse(readFileSync(join(packagesDir, 'auth', 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(manifest.dependencies as object)).toEqual(['@noble/hashes', 'ipaddr.js', 'zod']);
    expect(manifest.peerDependencies).toBeUndefined();
  });
});

describe.each(PACKAGES)('packages/%s as published', (name) => {
  const dir = join(packagesDir, name);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  const dist = filesUnder(join(dir, 'dist'));

  it('ships an MIT LICENSE and says where the code, the docs and the issues are', () => {
    expect(manifest.license).toBe('MIT');
    expect(manifest.files).toContain('LICENSE');
    expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    expect(manifest.repository).toEqual({ type: 'git', url: `git+${REPOSITORY}.git`, directory: `packages/${name}` });
    expect(manifest.homepage).toBe(`${REPOSITORY}/tree/main/packages/${name}#readme`);
    expect(manifest.bugs).toEqual({ url: `${REPOSITORY}/issues` });
  });

  it('ships its release notes (CHANGELOG.md, which `changeset version` writes)', () => {
    expect(manifest.files).toContain('CHANGELOG.md');
    expect(readFileSync(join(dir, 'CHANGELOG.md'), 'utf8')).toMatch(new RegExp(`^# ${String(manifest.name)}\\n`));
  });

  it('links its README only to absolute URLs (relative links break on npm)', () => {
    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]);
    expect(links.filter((link) => !/^https:\/\//.test(link ?? ''))).toEqual([]);
  });

  it('cites no file that does not ship in its type declarations', () => {
    for (const file of dist.filter((f) => /\.d\.c?ts$/.test(f))) {
      const text = readFileSync(file, 'utf8').replaceAll(/https:\/\/\S+/g, '');
      expect(text.match(/\b[\w./-]+\.(md|mjs)\b/g) ?? [], file).toEqual([]);
    }
  });

  it('ships source maps without embedded sources, and no CommonJS CLI', () => {
    for (const file of dist.filter((f) => f.endsWith('.map'))) {
      expect(JSON.parse(readFileSync(file, 'utf8')).sourcesContent, file).toBeUndefined();
    }
    expect(existsSync(join(dir, 'dist', 'cli.cjs'))).toBe(false);
  });
});
