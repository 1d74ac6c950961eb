import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

/** The runtimes the conformance checks run on, each a devDependency from the npm registry. */
export type Runtime = 'bun' | 'deno' | 'workerd';

/** ...and Node itself, which the per-runtime bench compares them with. */
export type AnyRuntime = Runtime | 'node';

/** A runtime serving the conformance app on loopback. */
export interface RunningRuntime {
  readonly url: string;
  /** The runtime's own version line, for the report. */
  readonly version: string;
  /** The runtime's own process id (never a wrapper's). */
  readonly pid: number;
  /** What the runtime printed, to explain a failure. */
  output(): string;
  /** Signals the runtime process itself (never a wrapper) and waits for it to exit. */
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** The runtime's real executable, as each npm package's postinstall left it: no launcher script. */
export function runtimeBinary(runtime: AnyRuntime): string {
  switch (runtime) {
    case 'node':
      return process.execPath;
    case 'bun':
      return join(require.resolve('bun/package.json'), '../bin/bun.exe');
    case 'deno':
      return join(require.resolve('deno/package.json'), '../deno');
    case 'workerd':
      return (require('workerd') as { default: string }).default;
  }
}

/** What to start: a source file (TypeScript) and the environment (bindings on workerd). */
export interface RuntimeApp {
  /** Absolute path of the entry for this runtime; but on workerd it prints `listening on …<port>`. */
  readonly entry: string;
  readonly env: Readonly<Record<string, string>>;
}

/**
 * Starts a runtime on `app.entry`, listening on a port the system chose. Bun and Deno run the
 * source as a user would (`bun <entry>`, `deno run <entry>`), resolving `@drops/auth` through
 * their own export condition. workerd runs what wrangler would deploy: an esbuild bundle made
 * with the `workerd` condition, as an ES module Worker with no compatibility flags.
 */
export async function startRuntime(runtime: AnyRuntime, app: RuntimeApp): Promise<RunningRuntime> {
  const dir = await mkdtemp(join(tmpdir(), `drops-${runtime}-`));
  const binary = runtimeBinary(runtime);
  const version = await versionOf(binary);
  let child: ChildProcess;
  let url: string;
  if (runtime === 'workerd') {
    await build({
      entryPoints: [app.entry],
      outfile: join(dir, 'app.js'),
      bundle: true,
      format: 'esm',
      platform: 'browser',
      conditions: ['workerd', 'worker'],
      target: 'es2022',
      logLevel: 'silent',
    });
    await writeFile(join(dir, 'config.capnp'), workerdConfig(app.env));
    // workerd serves on a socket this process opened on port 0 and hands over as fd 3.
    const socket = await listeningSocket();
    child = spawn(binary, ['serve', join(dir, 'config.capnp'), '--socket-fd', 'http=3'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe', listeningFd(socket)],
    });
    url = `http://127.0.0.1:${(socket.address() as AddressInfo).port}`;
    socket.close();
  } else {
    const args =
      runtime === 'bun' || runtime === 'node'
        ? [app.entry]
        : ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-sys', '--unstable-sloppy-imports', '--no-lock', app.entry];
    child = spawn(binary, args, {
      cwd: dirname(app.entry),
      env: { ...process.env, ...app.env, HOST: '127.0.0.1', PORT: '0', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    url = `http://127.0.0.1:${await printedPort(child)}`;
  }
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    version,
    pid: child.pid!,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function versionOf(binary: string): Promise<string> {
  const child = spawn(binary, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.once('exit', resolve));
  return out.split('\n')[0]!.trim();
}

/** The file descriptor of a listening socket (Unix), which `spawn` duplicates into the child. */
function listeningFd(server: Server): number {
  const fd = (server as unknown as { _handle?: { fd?: number } })._handle?.fd;
  if (typeof fd !== 'number' || fd < 0) throw new Error('no file descriptor for the listening socket');
  return fd;
}

function listeningSocket(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** Waits for the `listening on <port>` line the Bun and Deno entries print. */
function printedPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (?:http:\/\/[^\s:]+:)?(\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`runtime exited (${code}) before listening: ${err}`)));
  });
}

/**
 * A workerd configuration serving the bundle as an ES module Worker: no compatibility flags
 * (so no `nodejs_compat`), the environment as text bindings, and outbound fetches allowed to
 * loopback, where the test's identity provider listens (workerd refuses it by default).
 */
function workerdConfig(env: Readonly<Record<string, string>>): string {
  const compatibilityDate = (require('workerd') as { compatibilityDate: string }).compatibilityDate;
  const bindings = Object.entries(env)
    .map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`)
    .join(', ');
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "app.js", esModule = embed "app.js")],
  compatibilityDate = ${JSON.stringify(compatibilityDate)},
  compatibilityFlags = [],
  bindings = [${bindings}],
);
`;
}
