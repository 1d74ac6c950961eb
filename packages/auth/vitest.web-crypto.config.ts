import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

/**
 * The core's API key, ID token and authenticator suites again, on Node, with
 * `src/platform/runtime-crypto.ts` swapped for its Web Crypto twin exactly as the web build
 * (workerd, browsers, Deno, Bun) swaps it: same errors, same 401 and 503, same key set cache.
 * The runtimes themselves are driven by runtime-tests/.
 */
export default defineProject({
  test: {
    name: 'auth-web-crypto',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['src/{api-key,id-token,authenticator,fetch,keys,http,secret-scanning}/**/*.test.ts', 'src/platform/**/*.test.ts'],
    // A hang guard, not a speed check: the fast-check properties take a few seconds on a busy
    // 2-core machine, and the Node matrix runs them again on three Node majors at once with other work.
    testTimeout: 30_000,
  },
  resolve: {
    alias: [
      {
        find: /^(.*)\/platform\/runtime-crypto\.js$/,
        replacement: fileURLToPath(new URL('./src/platform/runtime-crypto.web.ts', import.meta.url)),
      },
    ],
  },
});
