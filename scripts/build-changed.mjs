// Builds the workspace packages whose inputs changed since their last build, in dependency order
// (pnpm's topological `-r`), and leaves the rest as they are: `pnpm start` on an unchanged tree
// builds nothing. A package's inputs are its own files outside dist/ and node_modules/ plus the
// root build configuration; their hash is kept in `dist/.build-inputs` after a successful build.
//
//   node scripts/build-changed.mjs      # what `pnpm start` runs before the server (dist/main.js)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The workspace folders `pnpm build` builds: the `--filter`s of the root package.json's script. */
const BUILD_SCRIPT = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.build;
const BUILT = [...BUILD_SCRIPT.matchAll(/--filter "?\.\/([^"\s]+)"?/g)].flatMap(([, filter]) => foldersOf(filter));

/** The folders a filter names: itself, or for `<folder>/**` each folder in it. */
function foldersOf(filter) {
  if (!filter.endsWith('/**')) return [filter];
  const parent = filter.slice(0, -'/**'.length);
  return readdirSync(join(ROOT, parent)).map((name) => join(parent, name));
}
const SHARED_INPUTS = ['tsup.config.base.ts', 'tsconfig.base.json', 'pnpm-lock.yaml'];
const SKIPPED = new Set(['dist', 'node_modules', '.tmp', '.turbo']);
const STAMP = join('dist', '.build-inputs');

/** Every file below `dir` but the skipped folders, sorted, as paths relative to ROOT. */
function filesBelow(dir) {
  const files = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...filesBelow(path));
    else if (entry.isFile()) files.push(path);
  }
  return files.sort();
}

/** The hash of a package's inputs: its files (names and contents) and the shared configuration. */
function inputsHash(dir) {
  const hash = createHash('sha256');
  for (const file of [...SHARED_INPUTS, ...filesBelow(dir)]) {
    hash.update(`${relative(ROOT, join(ROOT, file))}\0`);
    hash.update(readFileSync(join(ROOT, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function builtHash(dir) {
  const stamp = join(ROOT, dir, STAMP);
  return existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : null;
}

const hashes = new Map(BUILT.map((dir) => [dir, inputsHash(dir)]));
const stale = BUILT.filter((dir) => builtHash(dir) !== hashes.get(dir));
if (stale.length === 0) {
  console.log('build-changed: every package is up to date');
} else {
  console.log(`build-changed: building ${stale.join(', ')}`);
  // Each package bundles only its own code (its @drops dependencies stay imports), so a change
  // rebuilds only the package it is in; pnpm orders the stale ones by their dependencies.
  const filters = stale.flatMap((dir) => ['--filter', `./${dir}`]);
  const built = spawnSync('pnpm', ['-r', ...filters, 'run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
  for (const dir of stale) writeFileSync(join(ROOT, dir, STAMP), `${hashes.get(dir)}\n`);
}
