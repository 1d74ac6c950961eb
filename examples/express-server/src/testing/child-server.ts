import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serverCommand } from './server-command.mjs';
import { until } from './until.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

/** The reference server (`src/main.ts`) as a child process: the server itself, not a wrapper. */
export interface ChildServer {
  /** The pid spawned, which is the pid of the process that listens (checked at start). */
  readonly pid: number;
  readonly url: string;
  readonly stdout: string[];
  readonly stderr: string[];
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  readonly exited: Promise<number | string | null>;
  /** Kills its process group with SIGKILL, no shutdown at all, and waits for the exit. */
  kill(): Promise<void>;
  /** SIGTERM to the server (a graceful drain) and waits for the exit. */
  stop(): Promise<void>;
}

/** A started `src/main.ts` that may not listen (a refused configuration): its output and exit. */
export interface ChildProcessRun {
  readonly pid: number;
  readonly stdout: string[];
  readonly stderr: string[];
  readonly exited: Promise<number | string | null>;
  /** Sends `signal` to the child's whole process group (no-op once it has exited). */
  signal(signal: NodeJS.Signals): void;
}

// Every child still running, so `killChildServers()` (and, as a last resort, this worker's exit)
// ends them all.
const running = new Set<ChildProcessRun>();
process.once('exit', () => {
  for (const child of running) child.signal('SIGKILL');
});

/**
 * Spawns `node --import tsx src/main.ts` with `env` only (plus `PATH`, `HOME`): node runs the
 * server in this very process, so a signal sent to `pid` reaches the server (`tsx src/main.ts`
 * would start a wrapper whose child is the server, and SIGKILL would orphan it). The child leads
 * its own process group, which {@link killChildServers} kills whole.
 *
 * `built: true` spawns the built server as `pnpm start` runs it ({@link serverCommand};
 * `pnpm build` first). `wrapper: true` spawns the `tsx` wrapper instead: only for the test that shows
 * the difference. `maxOpenFiles` runs it under that descriptor limit (`prlimit --nofile`).
 */
export function spawnMain(
  env: Record<string, string>,
  options: { built?: boolean; wrapper?: boolean; maxOpenFiles?: number } = {},
): ChildProcessRun {
  let [command, args] =
    options.wrapper === true
      ? [tsx, ['src/main.ts']]
      : options.built === true
        ? ['sh', ['-c', serverCommand()]]
        : [process.execPath, ['--import', 'tsx', 'src/main.ts']];
  // prlimit sets the descriptor limit and execs the command: the pid is still the server's.
  if (options.maxOpenFiles !== undefined) [command, args] = ['prlimit', [`--nofile=${options.maxOpenFiles}`, command, ...args]];
  const child: ChildProcessWithoutNullStreams = spawn(command, args, {
    cwd: root,
    detached: true,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const run: ChildProcessRun = {
    pid: child.pid!,
    stdout,
    stderr,
    exited: new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal))),
    signal(signal) {
      try {
        // The group: whatever the server started goes with it.
        process.kill(-child.pid!, signal);
      } catch {
        // Already gone.
      }
    },
  };
  running.add(run);
  // The group may outlive its leader (a wrapper's child): keep it listed until killed.
  void run.exited.then(() => {
    if (groupMembers(run.pid).length === 0) running.delete(run);
  });
  return run;
}

/** The JSON lines a child server has written to `stdout` so far, parsed (other output skipped). */
export function logEntries<Entry>(stdout: readonly string[]): Entry[] {
  return stdout
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Entry);
}

/**
 * Whether the process `pid` is alive: it exists and is not a zombie. (In a container whose pid 1
 * does not reap, a killed orphan stays a zombie: it holds no port and no file, so it is dead.)
 */
export function processAlive(pid: number): boolean {
  const state = stateOf(`/proc/${pid}/stat`);
  if (state !== undefined) return state !== null && state !== 'Z' && state !== 'X';
  try {
    process.kill(pid, 0); // no /proc: not Linux
    return true;
  } catch {
    return false;
  }
}

/** The live (non-zombie) processes of the process group `pgid`. */
export function groupMembers(pgid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return groupAliveBySignal(pgid) ? [pgid] : [];
  }
  const members: number[] = [];
  for (const name of entries) {
    const fields = statFields(`/proc/${name}/stat`);
    if (fields !== null && Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') members.push(Number(name));
  }
  return members;
}

function groupAliveBySignal(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

// `/proc/<pid>/stat` after the command name: state, ppid, pgrp, … (null: no such process).
function statFields(path: string): string[] | null {
  try {
    const stat = readFileSync(path, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

// undefined: no /proc at all; null: no such process; else the state letter.
function stateOf(path: string): string | null | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  return statFields(path)?.[0] ?? null;
}

/**
 * SIGKILLs the process group of every child started here and waits until no process of those
 * groups is alive; for `afterAll`.
 */
export async function killChildServers(): Promise<void> {
  const all = [...running];
  for (const child of all) child.signal('SIGKILL');
  await Promise.all(all.map((child) => child.exited));
  await until(() => all.every((child) => groupMembers(child.pid).length === 0), 'the killed process groups to end', 2_000);
  running.clear();
}

/**
 * Resolves with the URL and pid of the first "listening" line `run` writes (JSON logs); rejects,
 * and kills the group, if it exits first or does not listen within `timeoutMs`.
 */
export function listening(run: ChildProcessRun, timeoutMs = 60_000): Promise<{ url: string; pid: number }> {
  const { stdout, stderr } = run;
  return new Promise((resolve, reject) => {
    const settle = (): void => {
      clearTimeout(timer);
      clearInterval(poll);
    };
    const timer = setTimeout(() => {
      settle();
      run.signal('SIGKILL');
      reject(new Error(`server did not start within ${timeoutMs} ms: ${stdout.join('')} ${stderr.join('')}`));
    }, timeoutMs);
    const poll = setInterval(() => {
      for (const entry of logEntries<{ url?: string; msg?: string; pid?: number }>(stdout)) {
        if (entry.msg?.startsWith('listening') === true && entry.url !== undefined && entry.pid !== undefined) {
          settle();
          resolve({ url: entry.url, pid: entry.pid });
          return;
        }
      }
    }, 20);
    void run.exited.then((code) => {
      settle();
      reject(new Error(`server exited (${String(code)}) before listening: ${stdout.join('')} ${stderr.join('')}`));
    });
  });
}

/**
 * Starts `src/main.ts` with `env` (plus `PORT=0`, JSON logs) and resolves once it logs its
 * listening URL. Rejects, and kills it, if it exits first, does not listen within `timeoutMs`,
 * or if the process that listens is not the one spawned (the `pid` in the listening line).
 */
export async function startChildServer(env: Record<string, string>, timeoutMs = 60_000): Promise<ChildServer> {
  const child = spawnMain({ PORT: '0', LOG_FORMAT: 'json', LOG_LEVEL: 'info', ANON_DEPLOY_LIMIT: '1000000', ...env });
  const { url, pid } = await listening(child, timeoutMs);
  if (pid !== child.pid) {
    child.signal('SIGKILL');
    throw new Error(`pid ${pid} listens, but pid ${child.pid} was spawned: a wrapper process is in between`);
  }
  return {
    pid: child.pid,
    url,
    stdout: child.stdout,
    stderr: child.stderr,
    exited: child.exited,
    async kill() {
      child.signal('SIGKILL');
      await child.exited;
    },
    async stop() {
      try {
        process.kill(child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
      await child.exited;
    },
  };
}
