import { stat } from 'node:fs/promises';
import { isApiKeyFormat } from '../api-key/api-key-format.js';
import type { CliIo } from './cli-io.js';
import { locateApiKeys } from './find-api-keys.js';
import { REVOKE_HELP } from './help-text.js';
import { KeysToRevoke } from './keys-to-revoke.js';
import { parseCommandArgs } from './parse-command-args.js';
import { plural } from './plural.js';
import { printable } from './printable.js';
import { MAX_FILE_BYTES, readTextFile } from './read-text-file.js';
import { readStdin } from './read-stdin.js';
import { REVOKE_PATH, serverEndpointFrom } from './revocation-endpoint.js';
import { sendRevocations } from './send-revocations.js';
import { UsageError } from './usage-error.js';

/** Every named file must exist and be a regular file; checked before anything is read or sent. */
async function checkFiles(paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    if (isApiKeyFormat(path)) {
      throw new UsageError(
        'revoke reads keys from stdin or from files, never from arguments (they stay in shell history).\n' +
          'Example: printenv LEAKED_KEY | drops-auth revoke --url https://drops.example.com',
      );
    }
    let info;
    try {
      info = await stat(path);
    } catch {
      throw new UsageError(`no such file: ${printable(path)}`);
    }
    if (info.isDirectory()) {
      const shown = printable(path);
      throw new UsageError(
        `${shown} is a directory: to find and revoke the keys under it, use drops-auth scan --revoke <base URL> ${shown}`,
      );
    }
    if (!info.isFile()) throw new UsageError(`not a file: ${printable(path)}`);
  }
}

/** Reads the named files (or stdin) into `keys`; resolves why one could not be read (to print as it is), or null. */
async function collect(paths: readonly string[], io: CliIo, keys: KeysToRevoke): Promise<string | null> {
  if (paths.length === 0) {
    const text = await readStdin(io.stdin, MAX_FILE_BYTES);
    if (text === null) return `stdin is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB: split it`;
    for (const { secret } of locateApiKeys(text)) keys.add(secret);
    return null;
  }
  for (const path of paths) {
    let result;
    try {
      result = await readTextFile(path);
    } catch (error) {
      return `cannot read ${printable(path)}: ${printable((error as NodeJS.ErrnoException).code ?? 'error')}`;
    }
    if (result.kind === 'too_large') return `${printable(path)} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB: split it`;
    if (result.kind === 'binary') return `${printable(path)} is a binary file (a NUL byte in the first 8000 bytes): extract the text first`;
    for (const { secret } of locateApiKeys(result.text)) keys.add(secret, path);
  }
  return null;
}

/**
 * `drops-auth revoke --url <base> [files...]`: finds API keys in the files (or stdin), prints
 * their prefixes and ids, and revokes them by value with `POST <base>/credentials/revoke`.
 * Resolves 0 when the server accepted every key, 1 when the input held none (nothing sent), 2 when
 * an input could not be read (nothing sent), 3 when the server refused or could not be reached;
 * throws `UsageError` (exit 2) for bad arguments. Never prints a secret.
 */
export async function revokeCommand(args: readonly string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const parsed = parseCommandArgs(args, REVOKE_HELP, io, ['url']);
  if (parsed === null) return 0;
  const { json, options, positionals } = parsed;
  const endpoint = serverEndpointFrom(options['url'], env, REVOKE_PATH);
  await checkFiles(positionals);
  if (positionals.length === 0 && io.stdin.isTTY) {
    throw new UsageError(
      'revoke reads the keys on stdin or from files: pipe them in or name the files, e.g.\n' +
        '  drops-auth revoke --url https://drops.example.com leaked.txt',
    );
  }

  const keys = new KeysToRevoke();
  const unreadable = await collect(positionals, io, keys);
  if (unreadable !== null) {
    io.stderr.write(`drops-auth revoke: ${unreadable}. Nothing was sent.\n`);
    return 2;
  }
  const input = positionals.length === 0 ? 'stdin' : plural(positionals.length, 'file');
  if (keys.size === 0) {
    io.stderr.write(`drops-auth revoke: no API key found in ${input} (hp_ followed by 43 base64url characters). Nothing was sent.\n`);
    return 1;
  }
  io.stderr.write(`drops-auth revoke: revoking ${plural(keys.size, 'key')} found in ${input}:\n`);
  io.stdout.write(keys.describe(json));
  return (await sendRevocations(endpoint, keys.secrets(), io, 'revoke')) ? 0 : 3;
}
