import { isApiKeyFormat } from '../api-key/api-key-format.js';
import { keyIdOf, keyPrefixOf } from '../api-key/key-id.js';
import type { CliIo } from './cli-io.js';
import { parseCommandArgs } from './parse-command-args.js';
import { KEY_ID_HELP } from './help-text.js';
import { readStdin } from './read-stdin.js';
import { UsageError } from './usage-error.js';

/** Longest stdin read: a secret is 46 characters; anything much longer is not one. */
const MAX_INPUT_BYTES = 4096;

/**
 * `drops-auth key-id`: reads a secret on stdin, prints its id and prefix. Resolves the exit
 * status. The secret is never read from argv and never printed, even when it is malformed.
 */
export async function keyIdCommand(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandArgs(args, KEY_ID_HELP, io);
  if (parsed === null) return 0;
  const { json, positionals } = parsed;
  if (positionals.length > 0) {
    throw new UsageError(
      'key-id reads the key on stdin, never from arguments (they stay in shell history).\n' +
        'Example: printenv DROPS_API_KEY | drops-auth key-id',
    );
  }
  if (io.stdin.isTTY) {
    throw new UsageError('key-id reads the key on stdin: pipe it in, e.g. printenv DROPS_API_KEY | drops-auth key-id');
  }
  const secret = (await readStdin(io.stdin, MAX_INPUT_BYTES))?.trim() ?? null;
  if (secret === null || !isApiKeyFormat(secret)) {
    io.stderr.write(
      'drops-auth key-id: the input is not a drops API key (expected hp_ followed by 43 base64url ' +
        'characters, 46 in all, and nothing else).\n',
    );
    return 1;
  }
  const id = keyIdOf(secret);
  const prefix = keyPrefixOf(secret);
  io.stdout.write(json ? `${JSON.stringify({ id, prefix })}\n` : `id      ${id}\nprefix  ${prefix}\n`);
  return 0;
}
