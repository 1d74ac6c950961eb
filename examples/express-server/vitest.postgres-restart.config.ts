import { defineProject } from 'vitest/config';

// The one test that stops and starts the real PostgreSQL server. It must not overlap any other
// test file that uses PostgreSQL, so it is its own project with a later `sequence.groupOrder`:
// the root `vitest run` runs every project of group 0 (all other tests) to the end first, then
// this one, alone. Run it by itself with `vitest run --project express-server-postgres-restart`.
export default defineProject({
  test: {
    name: 'express-server-postgres-restart',
    include: ['src/security/postgres-restart.test.ts'],
    sequence: { groupOrder: 1 },
    fileParallelism: false,
  },
});
