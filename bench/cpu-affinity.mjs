/**
 * One core for the load, another for the server under it. autocannon runs in the bench's own
 * process; left to the scheduler, it and the server share both cores, and each server's figures
 * then depend on how often the two land on the same core and which process's caches they find
 * there: on the 2-core machines here the same server read 25 to 42 µs of CPU per request from one
 * start to the next (bench/METHOD.md). Pinned, the load generator runs on the first core and the
 * servers on the last one, every thread of each (util-linux's `taskset`; Linux only).
 */
import { execFileSync } from 'node:child_process';

/** The CPUs `pid` may run on, as `taskset` prints them (`0,1` or `0-3,6`). */
function affinityOf(pid) {
  return execFileSync('taskset', ['-c', '-p', String(pid)], { encoding: 'utf8' })
    .split(':')
    .pop()
    .trim();
}

/** The CPU numbers of a `taskset` list. */
function cpusOf(list) {
  return list.split(',').flatMap((range) => {
    const [first, last = first] = range.split('-').map(Number);
    return Array.from({ length: last - first + 1 }, (_, i) => first + i);
  });
}

function pin(pid, cpus) {
  execFileSync('taskset', ['-a', '-c', '-p', cpus, String(pid)], { stdio: 'ignore' });
}

/**
 * Pins this process (the load generator) to the first CPU and returns `{ pinServer(pid), restore() }`:
 * `pinServer` puts a server process, every thread, on the last CPU (a child starts on its parent's
 * CPU, so a server is moved once it is up), `restore` gives this process back the CPUs it had (the
 * benches after this one run unpinned). Fails where it cannot pin (fewer than two CPUs, no
 * `taskset`): a figure taken with the load and the server on one core is not the figure it claims.
 */
export function splitCores() {
  let before;
  try {
    before = affinityOf(process.pid);
  } catch (error) {
    throw new Error(`the HTTP benches pin the load and the server to CPUs of their own with taskset (util-linux): ${error.message}`);
  }
  const cpus = cpusOf(before);
  if (cpus.length < 2)
    throw new Error(`the HTTP benches need two CPUs, one for the load and one for the server (this process may use ${before})`);
  const serverCpu = String(cpus.at(-1));
  pin(process.pid, String(cpus[0]));
  return {
    pinServer: (pid) => pin(pid, serverCpu),
    restore: () => pin(process.pid, before),
  };
}
