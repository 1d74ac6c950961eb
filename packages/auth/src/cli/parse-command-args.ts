import { parseArgs } from 'node:util';
import type { CliIo } from './cli-io.js';

/** The flags every command takes, and its positional arguments. */
export interface CommandArgs {
  readonly json: boolean;
  readonly positionals: readonly string[];
}

/**
 * Parses a command's arguments (`--json`, `--help`/`-h`, positionals; anything else throws, and
 * `runCli` turns that into a usage error). Prints `help` and resolves `null` when it was asked for.
 */
export function parseCommandArgs(args: readonly string[], help: string, io: CliIo): CommandArgs | null {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help === true) {
    io.stdout.write(help);
    return null;
  }
  return { json: values.json === true, positionals };
}
