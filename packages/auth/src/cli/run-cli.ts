import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CliIo } from './cli-io.js';
import { MAIN_HELP } from './help-text.js';
import { keyIdCommand } from './key-id-command.js';
import { keysCommand } from './keys-command.js';
import { printable } from './printable.js';
import { redact } from './redact.js';
import { revokeCommand } from './revoke-command.js';
import { scanCommand } from './scan-command.js';
import { signOutCommand } from './sign-out-command.js';
import { UsageError } from './usage-error.js';

const COMMANDS: Record<string, (args: readonly string[], io: CliIo) => Promise<number>> = {
  'key-id': keyIdCommand,
  keys: (args, io) => keysCommand(args, io),
  revoke: revokeCommand,
  scan: scanCommand,
  'sign-out-everywhere': (args, io) => signOutCommand(args, io),
};

function version(): string {
  try {
    // dist/cli.js or bin/drops-auth.js -> ../package.json, whether run directly or through a bin link.
    const script = realpathSync(process.argv[1] ?? '');
    return (JSON.parse(readFileSync(join(dirname(script), '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/**
 * Runs `drops-auth` with `argv` (without `node` and the script) and resolves the exit status:
 * 0 success, 1 a finding (scan) or bad input (key-id, revoke), 2 a usage error, 3 a revocation the
 * server did not accept (revoke, scan --revoke) or a listing it refused (keys).
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    io.stderr.write(MAIN_HELP);
    return 2;
  }
  if (command === '-h' || command === '--help' || command === 'help') {
    const topic = rest[0] !== undefined ? COMMANDS[rest[0]] : undefined;
    if (topic !== undefined) return topic(['--help'], io);
    io.stdout.write(MAIN_HELP);
    return 0;
  }
  if (command === '-v' || command === '--version') {
    io.stdout.write(`${version()}\n`);
    return 0;
  }
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (run === undefined) {
    io.stderr.write(`drops-auth: unknown command "${printable(command)}"\n\n${MAIN_HELP}`);
    return 2;
  }
  try {
    return await run(rest, io);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // A UsageError's message is the CLI's own, with what it quotes already printable; node's
    // argument parser quotes the arguments as they are.
    if (error instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_'))) {
      const message = error instanceof UsageError ? redact(error.message) : printable((error as Error).message);
      io.stderr.write(`drops-auth ${command}: ${message}\nRun drops-auth ${command} --help for usage.\n`);
      return 2;
    }
    io.stderr.write(`drops-auth ${command}: unexpected error: ${printable(String((error as Error)?.message ?? error))}\n`);
    return 2;
  }
}
