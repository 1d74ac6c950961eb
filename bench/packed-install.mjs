/**
 * The packed packages as a user installs them, for the HTTP benches: the seven @drops packages
 * packed by consumers/src/pack-packages.ts (the consumer tests' packer: `pnpm pack`, which rewrites
 * `workspace:^` to the version), installed with plain npm (`npm install --prefer-offline`, no
 * workspace link) into one project beside the frameworks at the versions the workspace's bench/
 * resolved, and bench/http-peers.mjs copied in (with pglite-folder.mjs), so its servers import
 * what a user's app imports.
 *
 * The install is kept in node_modules/.cache/drops-bench/, keyed by a hash of the tarballs and the
 * frameworks' versions: a run whose packages did not change reuses it and pays only the packing
 * (about 15 s); a changed package installs anew (under a minute once npm's cache has the
 * frameworks). Run `pnpm build` first: the tarballs are made from each package's dist.
 */
import { createHash } from 'node:crypto';
import { access, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const here = dirname(fileURLToPath(import.meta.url));
const CACHE = join(here, '..', 'node_modules', '.cache', 'drops-bench');

/** What http-peers.mjs imports besides the @drops packages, pinned to the versions bench/ resolved. */
const FRAMEWORKS = [
  'express',
  'fastify',
  'koa',
  '@koa/router',
  'hono',
  '@hono/node-server',
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  'reflect-metadata',
  'rxjs',
  'pg',
  '@electric-sql/pglite',
];

async function installedVersion(name) {
  return JSON.parse(await readFile(join(here, 'node_modules', name, 'package.json'), 'utf8')).version;
}

/** The bench's files the servers of http-peers.mjs run from, copied next to the packed packages. */
const PEER_FILES = ['http-peers.mjs', 'pglite-folder.mjs'];

/**
 * Packs, installs (or reuses the install) and copies http-peers.mjs (and what it imports) in;
 * resolves the copy's path, for `startPeer(kind, env, { script })`. Rejects with npm's output if
 * the install fails.
 */
export async function packedPeersScript() {
  const [{ packPackages }, { npmInstall }] = await Promise.all([
    tsImport('../consumers/src/pack-packages.ts', import.meta.url),
    tsImport('../consumers/src/scratch-project.ts', import.meta.url),
  ]);
  const frameworks = Object.fromEntries(await Promise.all(FRAMEWORKS.map(async (name) => [name, await installedVersion(name)])));
  const packed = await mkdtemp(join(tmpdir(), 'drops-bench-pack-'));
  try {
    const tarballs = await packPackages(packed);
    const hash = createHash('sha256').update(JSON.stringify(frameworks));
    for (const name of Object.keys(tarballs).sort()) hash.update(name).update(await readFile(tarballs[name]));
    const dir = join(CACHE, `packed-${hash.digest('hex').slice(0, 16)}`);
    const marker = join(dir, '.installed');
    if (!(await exists(marker))) {
      await rm(CACHE, { recursive: true, force: true }); // older installs, keyed by other tarballs
      await mkdir(join(dir, 'tarballs'), { recursive: true });
      const drops = {};
      for (const [name, file] of Object.entries(tarballs)) {
        await copyFile(file, join(dir, 'tarballs', basename(file)));
        drops[name] = `file:./tarballs/${basename(file)}`;
      }
      const packageJson = { name: 'drops-bench-packed', private: true, type: 'module', dependencies: { ...drops, ...frameworks } };
      await writeFile(join(dir, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
      process.stdout.write(`  installing the packed packages with npm into ${dir} …\n`);
      const install = await npmInstall({ dir });
      if (install.code !== 0) throw new Error(`npm install of the packed packages failed:\n${install.output}`);
      // The project lies inside the workspace: a package npm did not install would resolve from a
      // folder above it, not as a user's app would.
      for (const name of Object.keys(packageJson.dependencies)) {
        if (!(await exists(join(dir, 'node_modules', name, 'package.json')))) throw new Error(`npm did not install ${name} in ${dir}`);
      }
      await writeFile(marker, '');
    }
    for (const file of PEER_FILES) await copyFile(join(here, file), join(dir, file));
    return join(dir, 'http-peers.mjs');
  } finally {
    await rm(packed, { recursive: true, force: true });
  }
}

async function exists(path) {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
