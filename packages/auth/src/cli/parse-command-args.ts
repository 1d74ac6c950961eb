import { parseArgs } from 'node:util';
import type { CliIo } from './cli-io.js';

/** The flags every command takes, its own string options, and its positional arguments. */
export interface CommandArgs {
  readonly json: boolean;
  /** The values of the command's string options (`--url <base>`), by name; absent when not given. */
  readonly options: Readonly<Record<string, string | undefined>>;
  readonly positionals: readonly string[];
}

/**
 * Parses a command's arguments (`--json`, `--help`/`-h`, the command's own string options named in
 * `stringOptions`, positionals; anything else throws, and `runCli` turns that into a usage error).
 * Prints `help` and resolves `null` when it was asked for.
 */
export function parseCommandArgs(
  args: readonly string[],
  help: string,
  io: CliIo,
  stringOptions: readonly string[] = [],
): CommandArgs | null {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: {
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      ...Object.fromEntries(stringOptions.map((name) => [name, { type: 'string' as const }])),
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help === true) {
    io.stdout.write(help);
    return null;
  }
  const options: Record<string, string | undefined> = {};
  for (const name of stringOptions) {
    const value = (values as Record<string, unknown>)[name];
    options[name] = typeof value === 'string' ? value : undefined;
  }
  return { json: values.json === true, options, positionals };
}
