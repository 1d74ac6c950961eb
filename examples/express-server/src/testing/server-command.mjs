// Plain JavaScript, so the benches (bench/reference-servers.mjs) read it as the tests do.
import { readFileSync } from 'node:fs';

/** The folder the server's scripts run in (the package's). */
export const SERVER_FOLDER = new URL('../../', import.meta.url);

/**
 * The server's own command in `pnpm start`: the package's `start` script after its build step, a
 * shell command run in {@link SERVER_FOLDER}. pnpm runs it with `sh -c`; it `exec`s node, so a
 * signal pnpm passes on reaches the server.
 */
export function serverCommand() {
  const { scripts } = JSON.parse(readFileSync(new URL('package.json', SERVER_FOLDER), 'utf8'));
  return scripts.start.split('&&').at(-1).trim();
}
