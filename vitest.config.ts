import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/*',
      'examples/*',
      'docs',
      // Stops and starts PostgreSQL: sequence.groupOrder 1, so it runs after every other project.
      'examples/express-server/vitest.postgres-restart.config.ts',
    ],
  },
});
