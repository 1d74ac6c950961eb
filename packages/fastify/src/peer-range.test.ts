import { readFile } from 'node:fs/promises';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
  peerDependencies: Record<string, string>;
};

// npm refuses an install (ERESOLVE) when the app's own version is outside a peer range. The
// range is what the suite runs on (vitest.majors.ts), no wider.
describe('the peer range', () => {
  it.each(['4.26.0', '4.29.1', '5.0.0'])('accepts fastify@%s', (version) => {
    expect(semver.satisfies(version, manifest.peerDependencies['fastify'] ?? '')).toBe(true);
  });

  it.each(['4.25.2', '3.29.5', '6.0.0'])('refuses fastify@%s, which is not tested', (version) => {
    expect(semver.satisfies(version, manifest.peerDependencies['fastify'] ?? '')).toBe(false);
  });
});
