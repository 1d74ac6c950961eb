import { configDefaults, defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'express-server',
    include: ['src/**/*.test.ts'],
    // One migrated PGlite data folder for the run, copied for each test server (skips initdb).
    globalSetup: ['src/testing/pglite-template-setup.ts'],
    // Stops the real PostgreSQL: runs alone, after everything else (vitest.postgres-restart.config.ts).
    exclude: [...configDefaults.exclude, 'src/security/postgres-restart.test.ts'],
  },
});
