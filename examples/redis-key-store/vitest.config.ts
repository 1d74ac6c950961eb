import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'redis-key-store',
    include: ['src/**/*.test.ts'],
  },
});
