import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

/**
 * This package's suite on one Koa major and one @koa/router major. Older majors are installed
 * under aliases (`koa2`, `koa-router12`, ...) and swapped in for `koa` and `@koa/router`, in the
 * tests and in the adapter's own imports alike.
 */
export function koaProject(koa: 2 | 3, router: 12 | 13 | 14 | 15): UserWorkspaceConfig {
  const alias = [
    ...(koa === 3 ? [] : [{ find: /^koa$/, replacement: `koa${koa}` }]),
    ...(router === 15 ? [] : [{ find: /^@koa\/router$/, replacement: `koa-router${router}` }]),
  ];
  return defineProject({
    resolve: { alias },
    test: {
      name: koa === 3 && router === 15 ? 'koa' : `koa (Koa ${koa}, @koa/router ${router})`,
      include: ['src/**/*.test.ts'],
      env: { KOA_MAJOR: String(koa), KOA_ROUTER_MAJOR: String(router) },
    },
  });
}
