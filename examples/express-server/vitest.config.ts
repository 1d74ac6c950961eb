import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'express-server',
    include: ['src/**/*.test.ts'],
  },
});
