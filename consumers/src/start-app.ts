import { spawn } from 'node:child_process';

/** A scratch app's server, started by {@link startApp}. */
export interface RunningApp {
  readonly url: string;
  /** An ID token the app's local identity provider minted for `acct-consumer`. */
  readonly idToken: string;
  /** False once the process has exited (a crash, e.g. an unhandled rejection). */
  isRunning(): boolean;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Signals the node process itself (no wrapper in between) and waits for it to exit. */
  stop(): Promise<void>;
}

interface ReadyMessage {
  url: string;
  idToken: string;
}

/** Every app started and not yet exited, so a test that gave up waiting still leaves nothing running. */
const running = new Set<RunningApp['stop']>();

/** Stops every app still running: for afterAll. */
export async function stopAllApps(): Promise<void> {
  await Promise.all([...running].map((stop) => stop()));
}

function isReadyMessage(value: unknown): value is ReadyMessage {
  const v = value as Partial<ReadyMessage> | null;
  return typeof v?.url === 'string' && typeof v.idToken === 'string';
}

/**
 * Starts a compiled scratch app with the given node binary. The app reports its address and an ID
 * token over the IPC channel once it listens; an exit before that rejects with its output.
 *
 * @example
 * ```ts
 * const app = await startApp(process.execPath, project.entry, project.dir);
 * try { await fetch(`${app.url}/healthz`); } finally { await app.stop(); }
 * ```
 */
export function startApp(nodeBinary: string, entry: string, cwd: string): Promise<RunningApp> {
  const child = spawn(nodeBinary, [entry], { cwd, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const isRunning = (): boolean => child.exitCode === null && child.signalCode === null;
  const stop = async (): Promise<void> => {
    if (isRunning()) child.kill('SIGTERM');
    await exited;
  };
  running.add(stop);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(stop);
      resolve();
    }),
  );

  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`the app exited (${code ?? signal}) before listening:\n${output}`)));
    child.once('message', (message: unknown) => {
      if (!isReadyMessage(message)) {
        void stop();
        reject(new Error(`unexpected message from the app: ${JSON.stringify(message)}`));
        return;
      }
      child.disconnect(); // the IPC channel must not keep anything alive
      resolve({ url: message.url, idToken: message.idToken, isRunning, output: () => output, stop });
    });
  });
}
