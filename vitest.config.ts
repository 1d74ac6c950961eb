import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/*',
      'examples/*',
      'docs',
      'runtime-tests',
      // The core's suites again with the Web Crypto platform module (workerd, browsers, Deno, Bun).
      'packages/auth/vitest.web-crypto.config.ts',
      'consumers',
      // Stops and starts PostgreSQL: sequence.groupOrder 1, so it runs after every other project.
      'examples/express-server/vitest.postgres-restart.config.ts',
    ],
  },
});
