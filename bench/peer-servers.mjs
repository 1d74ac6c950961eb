/**
 * bench/http-peers.mjs's servers as child processes for the HTTP benchmarks: start one, wait until
 * it listens, read its CPU time. Stopped like the reference servers (reference-servers.mjs).
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processCpuMs } from './process-cpu-time.mjs';
import { tracked } from './reference-servers.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * One of bench/http-peers.mjs's servers: `{ child, url, apiKey?, stop() }`. `script` is the copy to
 * run (packed-install.mjs's, among the packed packages); by default bench/'s own, on the workspace.
 */
export async function startPeer(kind, env = {}, { script = join(here, 'http-peers.mjs') } = {}) {
  const child = fork(script, [kind], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: { ...process.env, ...env },
  });
  const proc = tracked(child, kind);
  const [message] = await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(() => {
      throw new Error(`${kind} exited: ${proc.stderr}`);
    }),
  ]);
  return { ...proc, url: message.url, apiKey: message.apiKey };
}

/** CPU time (all threads) a process has used so far, in microseconds; NaN where Linux does not report it. */
export function cpuMicros(pid) {
  return (processCpuMs(pid) ?? Number.NaN) * 1000;
}
