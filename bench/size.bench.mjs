/**
 * How much `@drops/auth` adds to an application bundle: esbuild, minified, platform node, from
 * the built dist, counting what an app loads to start (code behind an `import()` left out; the note
 * gives the one-file size with it). Not a speed: `display` carries the size, `ratio` is budget / size (≥ 1 is met).
 */
import { BUNDLE_BUDGETS, bundleSize, bundleSizeWithLazyImports } from '../scripts/bundle-size.mjs';

export async function run() {
  const rows = [];
  for (const budget of BUNDLE_BUDGETS) {
    const bytes = await bundleSize(budget.imports);
    const withLazy = await bundleSizeWithLazyImports(budget.imports);
    rows.push({
      group: 'size',
      name: `bundle: ${budget.name}`,
      display: `${(bytes / 1024).toFixed(1)} KB`,
      ratio: budget.limitBytes / bytes,
      target: 1,
      note: `${budget.imports.join(', ')}; budget ${budget.limitBytes / 1024} KB (ratio = budget / size); ${(withLazy / 1024).toFixed(1)} KB as one file with what it loads lazily`,
    });
  }
  return rows;
}
