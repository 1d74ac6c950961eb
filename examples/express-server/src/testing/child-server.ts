import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

/** The reference server (`tsx src/main.ts`) as a child process. */
export interface ChildServer {
  readonly pid: number;
  readonly url: string;
  readonly stdout: string[];
  readonly stderr: string[];
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  readonly exited: Promise<number | string | null>;
  /** Kills it with SIGKILL, no shutdown at all, and waits for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (a graceful drain) and waits for the exit. */
  stop(): Promise<void>;
}

/**
 * Starts `src/main.ts` with `env` (plus `PORT=0`, JSON logs) and resolves once it logs its
 * listening URL. Rejects, and kills it, if it exits first or does not listen within `timeoutMs`.
 */
export async function startChildServer(env: Record<string, string>, timeoutMs = 60_000): Promise<ChildServer> {
  const child: ChildProcessWithoutNullStreams = spawn(tsx, ['src/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      PORT: '0',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      ANON_DEPLOY_LIMIT: '1000000',
      ...env,
    },
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = new Promise<number | string | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  let gone = false;
  void exited.then(() => (gone = true));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${timeoutMs} ms: ${stdout.join('')} ${stderr.join('')}`));
    }, timeoutMs);
    const look = (): void => {
      for (const line of stdout.join('').split('\n')) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as { url?: string; msg?: string };
        if (entry.msg?.startsWith('listening') === true && entry.url !== undefined) {
          clearTimeout(timer);
          child.stdout.off('data', look);
          resolve(entry.url);
          return;
        }
      }
    };
    child.stdout.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${String(code)}) before listening: ${stdout.join('')} ${stderr.join('')}`));
    });
  });

  return {
    pid: child.pid!,
    url,
    stdout,
    stderr,
    exited,
    async kill() {
      if (!gone) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!gone) child.kill('SIGTERM');
      await exited;
    },
  };
}
