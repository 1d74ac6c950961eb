// Test helper (not exported, not in the bundle): runs the built `drops-auth` binary
// (`dist/cli.js`; `pnpm build` first) as a child process without blocking this process's event
// loop, so a test can serve HTTP to it from here.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BUILT_CLI = join(fileURLToPath(new URL('../../', import.meta.url)), 'dist', 'cli.js');

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The bytes the CLI wrote, undecoded: to check for raw control bytes. */
  readonly stdoutBytes: Buffer;
  readonly stderrBytes: Buffer;
}

/** Runs `drops-auth ...args` with `input` on stdin (closed right away when none) in `cwd`, with `env` added to this process's environment. */
export async function spawnCli(
  args: readonly string[],
  options: { input?: string; cwd?: string; env?: Record<string, string> } = {},
): Promise<CliRun> {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run pnpm build in packages/auth first`);
  const child = spawn(process.execPath, [BUILT_CLI, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdin.on('error', () => {}); // the CLI may exit before reading all of it (a usage error)
  child.stdin.end(options.input ?? '');
  const status = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
  const stdoutBytes = Buffer.concat(stdout);
  const stderrBytes = Buffer.concat(stderr);
  return { status, stdout: stdoutBytes.toString('utf8'), stderr: stderrBytes.toString('utf8'), stdoutBytes, stderrBytes };
}
