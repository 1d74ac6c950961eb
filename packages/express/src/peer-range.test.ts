import { readFile } from 'node:fs/promises';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
  peerDependencies: Record<string, string>;
};

// npm refuses an install (ERESOLVE) when the app's own version is outside the peer range. The
// range is what the suite runs on (Express 4 and 5, vitest.express4.config.ts), no narrower.
describe('the express peer range', () => {
  it.each(['4.17.0', '4.21.2', '4.22.3', '5.0.0', '5.1.0', '5.3.0'])('accepts an app pinned to express@%s', (version) => {
    expect(semver.satisfies(version, manifest.peerDependencies['express'] ?? '')).toBe(true);
  });

  it.each(['3.21.2', '4.16.4', '6.0.0'])('refuses express@%s, which is not tested', (version) => {
    expect(semver.satisfies(version, manifest.peerDependencies['express'] ?? '')).toBe(false);
  });
});
