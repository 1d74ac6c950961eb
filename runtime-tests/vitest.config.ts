import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'runtimes',
    include: ['src/**/*.test.ts'],
    // Each runtime starts once per file; the checks themselves are quick.
    hookTimeout: 60_000,
  },
});
