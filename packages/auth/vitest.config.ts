import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'auth',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // A hang guard, not a speed check: the fast-check properties take a few seconds on a busy
    // 2-core machine, and the Node matrix runs them again on three Node majors at once with other work.
    testTimeout: 30_000,
  },
});
