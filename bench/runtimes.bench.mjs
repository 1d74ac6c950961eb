/**
 * ID tokens, first sight, on each runtime: drops-auth's `verify` as a ratio to that runtime's own
 * `crypto.subtle.verify` floor, both measured in the same run by the same server
 * (runtimes/verify-app.mjs). Node runs the `node:crypto` build; Bun, Deno and workerd (without
 * nodejs_compat) the Web Crypto build, each from the npm package runtime-tests installs.
 * Requests are timed from here (workerd's clock stands still while a request computes): rounds
 * alternate floor and verifier, and each keeps its best round.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const here = dirname(fileURLToPath(import.meta.url));
const GROUP = 'ID token, first sight, per runtime';
const ENTRY = { node: 'node.mjs', bun: 'bun.mjs', deno: 'deno.mjs', workerd: 'worker.mjs' };
const PER_REQUEST = 1000;
const ROUNDS = 5;

export async function run() {
  const { startRuntime } = await tsImport('@drops/runtime-tests/start-runtime', import.meta.url);
  const rows = [];
  for (const runtime of Object.keys(ENTRY)) {
    const server = await startRuntime(runtime, { entry: join(here, 'runtimes', ENTRY[runtime]), env: {} });
    try {
      const seconds = async (what, n) => {
        const started = performance.now();
        const answer = await fetch(`${server.url}/${what}?n=${n}`);
        const text = await answer.text();
        if (!answer.ok) throw new Error(`${runtime} /${what}: ${answer.status} ${text} ${server.output()}`);
        return (performance.now() - started) / 1000;
      };
      await seconds('floor', 200);
      await seconds('drops', 200);
      let floor = Infinity;
      let drops = Infinity;
      for (let round = 0; round < ROUNDS; round++) {
        floor = Math.min(floor, await seconds('floor', PER_REQUEST));
        drops = Math.min(drops, await seconds('drops', PER_REQUEST));
      }
      const name = `${runtime} (${server.version.replace(/\s*\(.*$/, '')})`;
      rows.push({ group: GROUP, name: `${name}: floor crypto.subtle.verify`, opsPerSec: PER_REQUEST / floor });
      rows.push({ group: GROUP, name: `${name}: drops-auth verify`, opsPerSec: PER_REQUEST / drops, ratio: floor / drops, target: 0.7 });
    } finally {
      await server.stop();
    }
  }
  return rows;
}
