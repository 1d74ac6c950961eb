import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'postgres',
    include: ['src/**/*.test.ts'],
    // Real databases: PGlite takes a few seconds to start, PostgreSQL databases are created per file.
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
