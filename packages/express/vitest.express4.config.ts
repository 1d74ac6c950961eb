import { defineProject } from 'vitest/config';

// The same suite on Express 4: `express`, in the tests and in the adapter's own code, is Express 4
// (installed as the `express4` alias), so its router, which ignores rejected promises, is the one tested.
export default defineProject({
  resolve: { alias: [{ find: /^express$/, replacement: 'express4' }] },
  test: {
    name: 'express (Express 4)',
    include: ['src/**/*.test.ts'],
    env: { EXPRESS_MAJOR: '4' },
  },
});
