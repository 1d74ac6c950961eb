import { spawn } from 'node:child_process';
import { scratchEnv } from './scratch-env.js';

/** What a finished command left behind. */
export interface CommandResult {
  readonly code: number | null;
  readonly output: string;
}

/**
 * Runs a command to completion and collects stdout and stderr together. Never rejects on a
 * non-zero exit: the caller asserts on `code` so the output shows in the failure.
 *
 * @example
 * ```ts
 * const { code, output } = await runCommand('npm', ['install'], { cwd: dir });
 * ```
 */
export function runCommand(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? scratchEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}
