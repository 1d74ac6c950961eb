import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

/** The Fastify releases this package's suite runs on, by the name each is installed under. */
const FASTIFY = {
  fastify: { label: 'Fastify 5', major: '5' },
  fastify4: { label: 'Fastify 4', major: '4' },
} as const;

/**
 * This package's suite on one Fastify major. The older one is installed under an alias
 * (`fastify4`) and swapped in for `fastify`, in the tests and in the adapter's own imports alike.
 */
export function fastifyProject(fastify: keyof typeof FASTIFY): UserWorkspaceConfig {
  const alias = fastify === 'fastify' ? [] : [{ find: /^fastify$/, replacement: fastify }];
  const { label, major } = FASTIFY[fastify];
  return defineProject({
    resolve: { alias },
    test: {
      name: fastify === 'fastify' ? 'fastify' : `fastify (${label})`,
      include: ['src/**/*.test.ts'],
      env: { FASTIFY_MAJOR: major, FASTIFY_PACKAGE: fastify },
    },
  });
}
