import type { CliIo } from './cli-io.js';
import { SIGN_OUT_HELP } from './help-text.js';
import { parseCommandArgs } from './parse-command-args.js';
import { serverEndpointFrom } from './revocation-endpoint.js';
import { UsageError } from './usage-error.js';

/** Where the server signs an account out everywhere (`DELETE`, an ID token only). */
export const SIGN_OUT_PATH = '/sessions';

/** `'…'` for a POSIX shell. */
const shellQuoted = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * `drops-auth sign-out-everywhere --url <base>`: prints the command that signs the account out
 * everywhere. It sends nothing: only an ID token may, and this tool never holds one.
 */
export async function signOutCommand(args: readonly string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const parsed = parseCommandArgs(args, SIGN_OUT_HELP, io, ['url']);
  if (parsed === null) return 0;
  if (parsed.positionals.length > 0) throw new UsageError('takes no arguments: the ID token goes in the command it prints');
  const endpoint = serverEndpointFrom(parsed.options['url'], env, SIGN_OUT_PATH);
  io.stdout.write(`curl --fail-with-body -X DELETE -H "Authorization: Bearer $ID_TOKEN" ${shellQuoted(endpoint.href)}\n`);
  return 0;
}
