import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'consumers',
    include: ['src/**/*.test.ts'],
    // npm installs into scratch projects (concurrent, from a shared cache) and tsc runs per app.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
