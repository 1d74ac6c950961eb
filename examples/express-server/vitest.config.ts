import { configDefaults, defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'express-server',
    include: ['src/**/*.test.ts'],
    // Stops the real PostgreSQL: runs alone, after everything else (vitest.postgres-restart.config.ts).
    exclude: [...configDefaults.exclude, 'src/security/postgres-restart.test.ts'],
  },
});
