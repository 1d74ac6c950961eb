import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'dashboard',
    include: ['src/**/*.test.ts'],
    // The browser test serves the built page: build it from the current sources first.
    globalSetup: ['./test/build-page.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
