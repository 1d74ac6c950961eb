import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'postgres',
    include: ['src/**/*.test.ts'],
    // Real databases: PGlite takes a few seconds to start, PostgreSQL databases are created per file.
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // One fresh PGlite cluster for the run, copied by the tests that open PGlite (test-support/pglite-data-dir.ts).
    globalSetup: ['src/test-support/pglite-cluster-setup.ts'],
  },
});
