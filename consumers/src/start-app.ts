import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { scratchEnv } from './scratch-env.js';

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

/** Follows a child process: its output, whether it runs, and a stop that waits for its exit. */
function track(child: ChildProcess): { output: () => string; isRunning: () => boolean; stop: () => Promise<void>; exited: Promise<void> } {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const isRunning = (): boolean => child.exitCode === null && child.signalCode === null;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(stop);
      resolve();
    }),
  );
  const stop = async (): Promise<void> => {
    if (isRunning()) child.kill('SIGTERM');
    await exited;
  };
  running.add(stop);
  return { output: () => output, isRunning, stop, exited };
}

/**
 * Starts a compiled scratch app with the given node binary, `env` added to the test's environment.
 * The app reports its address and an ID token over the IPC channel once it listens; an exit
 * before that rejects with its output.
 *
 * @example
 * ```ts
 * const app = await startApp(process.execPath, project.entry, project.dir);
 * try { await fetch(`${app.url}/healthz`); } finally { await app.stop(); }
 * ```
 */
export function startApp(nodeBinary: string, entry: string, cwd: string, env: NodeJS.ProcessEnv = {}): Promise<RunningApp> {
  const child = spawn(nodeBinary, [entry], { cwd, env: scratchEnv(env), stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  const { output, isRunning, stop } = track(child);

  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`the app exited (${code ?? signal}) before listening:\n${output()}`)));
    child.once('message', (message: unknown) => {
      if (!isReadyMessage(message)) {
        void stop();
        reject(new Error(`unexpected message from the app: ${JSON.stringify(message)}`));
        return;
      }
      child.disconnect(); // the IPC channel must not keep anything alive
      resolve({ url: message.url, idToken: message.idToken, isRunning, output, stop });
    });
  });
}

/** A loopback port nothing listens on right now, for a server that must be told its port. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** How {@link startCliServer} runs a framework's server and knows it is up. */
export interface CliServerOptions {
  readonly cwd: string;
  /** Added to the test's environment. */
  readonly env: NodeJS.ProcessEnv;
  /** The base URL the server will listen on. */
  readonly url: string;
  /** A path that answers 200 once the server serves requests. */
  readonly readyPath: string;
  /** An ID token for the app's identity provider (the test's own), handed back on the `RunningApp`. */
  readonly idToken: string;
}

/**
 * Starts a framework's own server (e.g. `node node_modules/next/dist/bin/next start`) as the node
 * process itself, so stopping it stops the server, and resolves once `readyPath` answers 200; an
 * exit before that rejects with its output.
 *
 * @example
 * ```ts
 * const app = await startCliServer(process.execPath, [nextBin, 'start', '--port', '4000'], { cwd, env, url, readyPath: '/healthz', idToken });
 * ```
 */
export async function startCliServer(nodeBinary: string, args: readonly string[], options: CliServerOptions): Promise<RunningApp> {
  const child = spawn(nodeBinary, args, { cwd: options.cwd, env: scratchEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
  const { output, isRunning, stop, exited } = track(child);
  const failed = new Promise<never>((_resolve, reject) => {
    child.once('error', reject);
    void exited.then(() => reject(new Error(`the server exited (${child.exitCode ?? child.signalCode}) before serving:\n${output()}`)));
  });
  failed.catch(() => undefined);
  const ready = async (): Promise<void> => {
    // Bounded by the hook's timeout; each attempt waits for the server or its refusal.
    while (isRunning()) {
      const status = await fetch(new URL(options.readyPath, options.url)).then(
        (res) => res.status,
        () => 0,
      );
      if (status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  try {
    await Promise.race([ready(), failed]);
    if (!isRunning()) await failed;
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: options.url, idToken: options.idToken, isRunning, output, stop };
}
