import { readFile } from 'node:fs/promises';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
  peerDependencies: Record<string, string>;
};

// npm refuses an install (ERESOLVE) when the app's own version is outside a peer range. The
// ranges are what the suite runs on (vitest.majors.ts), no narrower.
describe('the peer ranges', () => {
  it.each([
    ['koa', '2.13.0'],
    ['koa', '2.16.1'],
    ['koa', '3.0.0'],
    ['@koa/router', '12.0.0'],
    ['@koa/router', '13.1.0'],
    ['@koa/router', '14.0.0'],
    ['@koa/router', '15.0.0'],
  ])('accept %s@%s', (name, version) => {
    expect(semver.satisfies(version, manifest.peerDependencies[name] ?? '')).toBe(true);
  });

  it.each([
    ['koa', '2.12.1'],
    ['koa', '4.0.0'],
    ['@koa/router', '11.0.2'],
    ['@koa/router', '16.0.0'],
  ])('refuse %s@%s, which is not tested', (name, version) => {
    expect(semver.satisfies(version, manifest.peerDependencies[name] ?? '')).toBe(false);
  });
});
