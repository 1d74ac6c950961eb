import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

/** The Express releases this package's suite runs on, by the name each is installed under. */
const RELEASES = {
  express: { label: '', major: '5' },
  express4: { label: 'Express 4', major: '4' },
  'express4-17': { label: 'Express 4.17', major: '4' },
} as const;

/**
 * This package's suite on one Express release. Older ones are installed under aliases
 * (`express4`: the latest 4.x, `express4-17`: the oldest the peer range admits) and swapped in
 * for `express` in the tests and in the adapter's own imports alike, so Express 4's router,
 * which ignores rejected promises, is the one tested.
 */
export function expressProject(name: keyof typeof RELEASES): UserWorkspaceConfig {
  const { label, major } = RELEASES[name];
  return defineProject({
    resolve: { alias: name === 'express' ? [] : [{ find: /^express$/, replacement: name }] },
    test: {
      name: label === '' ? 'express' : `express (${label})`,
      include: ['src/**/*.test.ts'],
      env: { EXPRESS_MAJOR: major, EXPRESS_PACKAGE: name },
    },
  });
}
