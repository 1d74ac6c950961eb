import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'hono-app',
    include: ['src/**/*.test.ts'],
  },
});
