import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'docs',
    include: ['*.test.ts'],
    // A hang guard, not a speed limit: in the full run these examples share two cores with every
    // other project's files and their child processes, and the one that creates a PGlite data
    // folder (initdb) took 63 s there, 7 s alone.
    testTimeout: 180_000,
  },
});
