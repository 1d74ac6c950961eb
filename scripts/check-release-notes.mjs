// Dry run of the release's first step, as part of `pnpm test`: `changeset version` on a scratch
// copy of the workspace's manifests and changesets (the tree itself is never touched). Fails unless
// every published package comes out with one version (the `fixed` group), a CHANGELOG.md whose
// newest section is that version, and `CHANGELOG.md` among the files its tarball ships.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (path) => JSON.parse(readFileSync(path, 'utf8'));

/** Workspace folders of pnpm-workspace.yaml: `dir/*` globs and plain folders. */
function workspaceDirs() {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const block = yaml.split(/^packages:\s*$/m)[1]?.split(/^\S/m)[0] ?? '';
  const patterns = [...block.matchAll(/^\s+-\s+['"]?([^'"\s]+)['"]?\s*$/gm)].map((m) => m[1]);
  return patterns
    .flatMap((pattern) =>
      pattern.endsWith('/*')
        ? readdirSync(join(root, pattern.slice(0, -2)), { withFileTypes: true })
            .filter((entry) => entry.isDirectory())
            .map((entry) => join(pattern.slice(0, -2), entry.name))
        : [pattern],
    )
    .filter((dir) => existsSync(join(root, dir, 'package.json')));
}

const scratch = mkdtempSync(join(tmpdir(), 'drops-release-notes-'));
const failures = [];
try {
  for (const file of ['package.json', 'pnpm-workspace.yaml', '.changeset']) {
    cpSync(join(root, file), join(scratch, file), { recursive: true });
  }
  // The changelog generator named in .changeset/config.json resolves from the scratch root.
  symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'), 'dir');
  const published = [];
  for (const dir of workspaceDirs()) {
    cpSync(join(root, dir, 'package.json'), join(scratch, dir, 'package.json'));
    if (existsSync(join(root, dir, 'CHANGELOG.md'))) {
      cpSync(join(root, dir, 'CHANGELOG.md'), join(scratch, dir, 'CHANGELOG.md'));
    }
    const manifest = read(join(root, dir, 'package.json'));
    if (!manifest.private) published.push({ dir, manifest });
  }
  const pending = readdirSync(join(root, '.changeset')).filter((f) => f.endsWith('.md') && f !== 'README.md');
  if (pending.length === 0) failures.push('no pending changeset: nothing would be released');

  execFileSync(join(root, 'node_modules', '.bin', 'changeset'), ['version'], { cwd: scratch, stdio: 'pipe' });

  const fixed = read(join(root, '.changeset', 'config.json')).fixed.flat();
  const versions = new Set();
  for (const { dir, manifest } of published) {
    if (!fixed.includes(manifest.name)) failures.push(`${manifest.name} is not in the changesets' fixed group`);
    if (!manifest.files?.includes('CHANGELOG.md')) failures.push(`${manifest.name} does not ship CHANGELOG.md (package.json "files")`);
    if (!existsSync(join(root, dir, 'CHANGELOG.md'))) failures.push(`${dir}/CHANGELOG.md is missing`);
    const { version } = read(join(scratch, dir, 'package.json'));
    versions.add(version);
    const changelog = existsSync(join(scratch, dir, 'CHANGELOG.md')) ? readFileSync(join(scratch, dir, 'CHANGELOG.md'), 'utf8') : '';
    const newest = changelog.match(/^## (\S+)$/m)?.[1];
    if (newest !== version) failures.push(`${manifest.name}: CHANGELOG.md's newest section is ${newest ?? 'missing'}, not ${version}`);
  }
  if (versions.size !== 1) failures.push(`the published packages would not share one version: ${[...versions].join(', ')}`);
  const left = readdirSync(join(scratch, '.changeset')).filter((f) => f.endsWith('.md') && f !== 'README.md');
  if (left.length > 0) failures.push(`changeset version left ${left.join(', ')} unconsumed`);
  if (failures.length === 0) {
    console.log(`release notes: changeset version would release ${published.length} packages at ${[...versions][0]}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.error(`release notes:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
