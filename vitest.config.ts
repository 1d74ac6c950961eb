import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './vitest.sequencer.js';

export default defineConfig({
  test: {
    // vitest's default is one worker less than the cores: one, on the two-core machines CI runs on.
    // Most files wait on child processes, PostgreSQL, npm and sockets rather than compute, so three
    // files at a time keep both cores busy.
    maxWorkers: 3,
    // The files that run for minutes first, so that none of them is the run's tail.
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      'packages/*',
      // The adapters' suites again on the older framework majors they support.
      'packages/express/vitest.express4.config.ts',
      'packages/express/vitest.express4-17.config.ts',
      'packages/koa/vitest.koa2-13-router12.config.ts',
      'packages/koa/vitest.koa3-router13.config.ts',
      'packages/koa/vitest.koa2-router14.config.ts',
      'packages/fastify/vitest.fastify4.config.ts',
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
