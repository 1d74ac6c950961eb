/**
 * User and system CPU per request of the reference server (PGlite in a folder, as `pnpm start`
 * runs it, `GET /whoami` with a minted key) and of `express-shaped` (the bare Express route on
 * requests and responses shaped like the reference server's, sent the same header), under wrk:
 * which side of the kernel boundary the like-for-like gap of bench/METHOD.md is on. Each server
 * pinned to the last core and wrk to the first (cpu-affinity.mjs), 32 connections, interleaved
 * rounds of a 1 s warm-up and SECONDS of load, every answer checked against the server's own
 * (bench/wrk.mjs); one line per server, one entry per round.
 *
 *   pnpm build && node bench/cpu-split.mjs [ROUNDS=3] [SECONDS=4]
 */
import { LocalIdentityProvider } from '@drops/auth/testing';
import { splitCores } from './cpu-affinity.mjs';
import { pgliteFolder } from './pglite-folder.mjs';
import { startPeer } from './peer-servers.mjs';
import { processUserSystemMs } from './process-cpu-time.mjs';
import { mintKey, startReference } from './reference-servers.mjs';
import { assertWholeSeconds, checkedWrk } from './wrk.mjs';

const [rounds = 3, seconds = 4] = process.argv.slice(2).map(Number);
assertWholeSeconds('SECONDS', seconds);
const cores = splitCores();
const idp = await LocalIdentityProvider.start({ audience: 'drops-bench' });
const oidc = { AUTH_ISSUER: idp.issuer, AUTH_AUDIENCE: idp.audience, AUTH_JWKS_URL: idp.jwksUrl };
const servers = {};
try {
  servers.reference = await startReference('reference', { ...oidc, DATA_DIR: pgliteFolder() });
  const key = await mintKey(servers.reference.url, idp.mintIdToken({ sub: 'acct_bench' }));
  servers['express-shaped'] = await startPeer('express-shaped', oidc);
  for (const server of Object.values(servers)) cores.pinServer(server.child.pid);
  // Each server's own answer, as it gives it once: wrk then checks every answer against it.
  const authorization = `Bearer ${key}`;
  const bodies = {};
  for (const [name, server] of Object.entries(servers)) {
    const answer = await fetch(`${server.url}/whoami`, { headers: { authorization } });
    if (answer.status !== 200) throw new Error(`${name}: GET /whoami answered ${answer.status}`);
    bodies[name] = await answer.text();
  }
  const lines = Object.fromEntries(Object.keys(servers).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, server] of Object.entries(servers)) {
      const load = { url: `${server.url}/whoami`, connections: 32, authorization, expectBody: bodies[name] };
      await checkedWrk(name, { ...load, seconds: 1 });
      const before = processUserSystemMs(server.child.pid);
      const { right } = await checkedWrk(name, { ...load, seconds });
      const after = processUserSystemMs(server.child.pid);
      const perRequest = (ms) => ((ms * 1000) / right).toFixed(1);
      lines[name].push(`user ${perRequest(after.user - before.user)} µs, system ${perRequest(after.system - before.system)} µs`);
    }
  }
  for (const [name, entries] of Object.entries(lines)) console.log(`${name.padEnd(15)} ${entries.join(' | ')}`);
} finally {
  for (const server of Object.values(servers)) await server.stop();
  await idp.close();
  cores.restore();
}
