import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'koa-app',
    include: ['src/**/*.test.ts'],
  },
});
