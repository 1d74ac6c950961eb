/**
 * User and system CPU per request of the reference server (PGlite in memory, as `pnpm start`
 * runs it, `GET /whoami` with a minted key) and of `express-shaped` (the bare Express route on
 * requests and responses shaped like the reference server's, sent the same header), under wrk:
 * which side of the kernel boundary the like-for-like gap of bench/METHOD.md is on. Each server
 * pinned to the last core and wrk to the first (cpu-affinity.mjs), 32 connections, interleaved
 * rounds of a 1 s warm-up and SECONDS of load; one line per server, one entry per round.
 *
 *   pnpm build && node bench/cpu-split.mjs [ROUNDS=3] [SECONDS=4]
 */
import { execFileSync } from 'node:child_process';
import { LocalIdentityProvider } from '@drops/auth/testing';
import { splitCores } from './cpu-affinity.mjs';
import { startPeer } from './peer-servers.mjs';
import { processUserSystemMs } from './process-cpu-time.mjs';
import { mintKey, startReference } from './reference-servers.mjs';
import { assertWholeSeconds } from './wrk.mjs';

const [rounds = 3, seconds = 4] = process.argv.slice(2).map(Number);
assertWholeSeconds('SECONDS', seconds);
const cores = splitCores();
const idp = await LocalIdentityProvider.start({ audience: 'drops-bench' });
const oidc = { AUTH_ISSUER: idp.issuer, AUTH_AUDIENCE: idp.audience, AUTH_JWKS_URL: idp.jwksUrl };
const servers = {};
try {
  servers.reference = await startReference('reference', { ...oidc, DATA_DIR: ':memory:' });
  const key = await mintKey(servers.reference.url, idp.mintIdToken({ sub: 'acct_bench' }));
  servers['express-shaped'] = await startPeer('express-shaped', oidc);
  for (const server of Object.values(servers)) cores.pinServer(server.child.pid);
  const lines = {};
  for (let round = 0; round < rounds; round++) {
    for (const [name, server] of Object.entries(servers)) {
      const args = ['-t1', '-c32', '-H', `Authorization: Bearer ${key}`, `${server.url}/whoami`];
      execFileSync('wrk', ['-d1s', ...args]);
      const before = processUserSystemMs(server.child.pid);
      const report = execFileSync('wrk', [`-d${seconds}s`, ...args]).toString();
      const after = processUserSystemMs(server.child.pid);
      if (/Non-2xx|Socket errors/.test(report)) throw new Error(`${name}: not every answer was a 200:\n${report}`);
      const requests = Number(/(\d+) requests in/.exec(report)?.[1]);
      const perRequest = (ms) => ((ms * 1000) / requests).toFixed(1);
      lines[name] = [
        ...(lines[name] ?? []),
        `user ${perRequest(after.user - before.user)} µs, system ${perRequest(after.system - before.system)} µs`,
      ];
    }
  }
  for (const [name, entries] of Object.entries(lines)) console.log(`${name.padEnd(15)} ${entries.join(' | ')}`);
} finally {
  for (const server of Object.values(servers)) await server.stop();
  await idp.close();
  cores.restore();
}
