import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

/** The Koa releases this package's suite runs on, by the name each is installed under. */
const KOA = {
  koa: { label: 'Koa 3', major: '3' },
  koa2: { label: 'Koa 2', major: '2' },
  'koa2-13': { label: 'Koa 2.13', major: '2' },
} as const;

/**
 * This package's suite on one Koa release and one @koa/router major. Older ones are installed
 * under aliases (`koa2`: the latest 2.x, `koa2-13`: the oldest the peer range admits,
 * `koa-router12` ...) and swapped in for `koa` and `@koa/router`, in the tests and in the
 * adapter's own imports alike.
 */
export function koaProject(koa: keyof typeof KOA, router: 12 | 13 | 14 | 15): UserWorkspaceConfig {
  const alias = [
    ...(koa === 'koa' ? [] : [{ find: /^koa$/, replacement: koa }]),
    ...(router === 15 ? [] : [{ find: /^@koa\/router$/, replacement: `koa-router${router}` }]),
  ];
  const { label, major } = KOA[koa];
  return defineProject({
    resolve: { alias },
    test: {
      name: koa === 'koa' && router === 15 ? 'koa' : `koa (${label}, @koa/router ${router})`,
      include: ['src/**/*.test.ts'],
      env: { KOA_MAJOR: major, KOA_PACKAGE: koa, KOA_ROUTER_MAJOR: String(router) },
    },
  });
}
