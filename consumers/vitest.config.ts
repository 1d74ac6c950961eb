import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'consumers',
    include: ['src/**/*.test.ts'],
    // npm installs into scratch projects (concurrent, from a shared cache) and tsc runs per app: a
    // scenario's first test waits for its install, which shares two cores with every other one.
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
