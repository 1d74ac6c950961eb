import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'dashboard',
    include: ['src/**/*.test.ts'],
    // The browser test serves the built page: build it from the current sources first. The
    // reference server's tests' PGlite template: each test server starts on a copy (no initdb).
    globalSetup: ['./test/build-page.ts', '../express-server/src/testing/pglite-template-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
