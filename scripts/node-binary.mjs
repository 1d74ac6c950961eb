// Node binaries from the npm registry (the `node` package), for running the tests on every Node
// version `engines` names. Used by scripts/node-matrix.mjs and by the consumer test.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * The Node versions the tests run on: the oldest that `engines` names and the newest of each
 * supported major (`npm view node versions --json`). Keep `engines` in the packages in step.
 */
export const TESTED_NODE_VERSIONS = ['20.12.2', '22.23.3', '24.21.0', '26.10.0'];

/**
 * The path of the node binary of an exact version, fetched once through npx (npm's cache keeps it).
 * The path, not npx: a test that signals the process must reach node itself.
 *
 * @param {string} version exact, e.g. `20.12.2`
 * @returns {Promise<string>}
 * @example
 * ```js
 * const node20 = await nodeBinary('20.12.2'); // ~/.npm/_npx/<hash>/node_modules/node/bin/node
 * ```
 */
export async function nodeBinary(version) {
  const { stdout } = await promisify(execFile)(
    'npx',
    ['--yes', '--package', `node@${version}`, '--', 'node', '--print', 'process.execPath + " " + process.version'],
    { maxBuffer: 1 << 20 },
  );
  const [path, reported] = stdout.trim().split(' ');
  if (!path || reported !== `v${version}`) throw new Error(`npx node@${version} ran ${reported ?? 'nothing'} (${stdout.trim()})`);
  return path;
}
