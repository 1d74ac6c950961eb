import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DropsPackage } from './scenarios.js';
import { runCommand } from './run-command.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

const TARBALL_NAMES: Readonly<Record<DropsPackage, string>> = {
  '@drops/auth': 'drops-auth-',
  '@drops/auth-express': 'drops-auth-express-',
  '@drops/auth-koa': 'drops-auth-koa-',
  '@drops/auth-fastify': 'drops-auth-fastify-',
  '@drops/auth-hono': 'drops-auth-hono-',
  '@drops/auth-nestjs': 'drops-auth-nestjs-',
  '@drops/auth-postgres': 'drops-auth-postgres-',
};

/**
 * Packs the published packages (already built) with `pnpm pack`, as a release would: pnpm
 * rewrites their `workspace:^` ranges to the version. Returns each package's tarball path.
 *
 * @example
 * ```ts
 * const tarballs = await packPackages(tmpDir);
 * tarballs['@drops/auth']; // /tmp/.../drops-auth-0.1.0.tgz
 * ```
 */
export async function packPackages(destination: string): Promise<Record<DropsPackage, string>> {
  const { code, output } = await runCommand(
    'npx',
    ['--yes', 'pnpm@10', '--recursive', '--filter', './packages/**', 'pack', '--pack-destination', destination],
    { cwd: REPO_ROOT },
  );
  if (code !== 0) throw new Error(`pnpm pack failed:\n${output}`);
  const files = await readdir(destination);
  const tarballs = {} as Record<DropsPackage, string>;
  for (const [name, prefix] of Object.entries(TARBALL_NAMES) as Array<[DropsPackage, string]>) {
    // `drops-auth-` also starts the adapters' names: the version must follow the prefix directly.
    const file = files.find((f) => f.startsWith(prefix) && /^\d/.test(f.slice(prefix.length)));
    if (!file) throw new Error(`pnpm pack wrote no tarball for ${name} in ${destination}: ${files.join(', ')}`);
    tarballs[name] = join(destination, file);
  }
  return tarballs;
}
