import { stat } from 'node:fs/promises';
import { keyRouteText } from '../key-routes/key-route-table.js';
import type { CliIo } from './cli-io.js';
import { locateApiKeys, type ApiKeyFinding } from './find-api-keys.js';
import { SCAN_HELP } from './help-text.js';
import { KeysToRevoke } from './keys-to-revoke.js';
import { parseCommandArgs } from './parse-command-args.js';
import { plural } from './plural.js';
import { printable } from './printable.js';
import { MAX_FILE_BYTES, readTextFile, type ReadResult } from './read-text-file.js';
import { revocationEndpoint } from './revocation-endpoint.js';
import { sendRevocations } from './send-revocations.js';
import { SkippedPaths } from './skipped-paths.js';
import { UsageError } from './usage-error.js';
import { walkFiles, type WalkedFile } from './walk-files.js';

async function filesOf(paths: readonly string[], skipped: SkippedPaths): Promise<WalkedFile[]> {
  const files: WalkedFile[] = [];
  for (const path of paths) {
    let info;
    try {
      info = await stat(path);
    } catch {
      throw new UsageError(`no such file or directory: ${printable(path)}`);
    }
    if (info.isDirectory()) files.push(...(await walkFiles(path, skipped)));
    else if (info.isFile()) files.push({ display: path, absolute: path });
    else throw new UsageError(`not a file or directory: ${printable(path)}`);
  }
  return files;
}

/**
 * `drops-auth scan [--revoke <base>] <paths...>`: prints every API key found as
 * `file:line:column`, prefix and id, never the secret. With `--revoke`, then says which keys it
 * will revoke (prefix, id, files) and revokes them by value at `<base>/credentials/revoke`.
 * Resolves 1 when any is found (and, with `--revoke`, the server accepted them all), 0 when clean,
 * 2 when a file could not be read, 3 when keys were found and the server did not accept the
 * revocation; throws `UsageError` (exit 2) for bad arguments.
 */
export async function scanCommand(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandArgs(args, SCAN_HELP, io, ['revoke']);
  if (parsed === null) return 0;
  const { json, options, positionals } = parsed;
  const endpoint = options['revoke'] === undefined ? null : revocationEndpoint(options['revoke'], '--revoke');
  if (positionals.length === 0) throw new UsageError('scan needs at least one file or directory, e.g. drops-auth scan .');

  const skipped = new SkippedPaths();
  const files = await filesOf(positionals, skipped);
  const keys = new KeysToRevoke();
  let found = 0;
  let filesWithKeys = 0;
  let unreadable = 0;
  for (const file of files) {
    let result: ReadResult;
    try {
      result = await readTextFile(file.absolute);
    } catch (error) {
      unreadable++;
      io.stderr.write(
        `drops-auth scan: cannot read ${printable(file.display)}: ${printable((error as NodeJS.ErrnoException).code ?? 'error')}\n`,
      );
      continue;
    }
    if (result.kind === 'too_large') {
      skipped.add('too large');
      io.stderr.write(`drops-auth scan: skipped ${printable(file.display)}: larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB\n`);
      continue;
    }
    if (result.kind === 'binary') {
      skipped.add('binary');
      continue;
    }
    const located = locateApiKeys(result.text);
    if (located.length === 0) continue;
    found += located.length;
    filesWithKeys++;
    for (const { finding, secret } of located) {
      io.stdout.write(formatFinding(file.display, finding, json));
      keys.add(secret, file.display);
    }
  }

  if (found === 0) {
    io.stderr.write(`drops-auth scan: no API keys found in ${plural(files.length, 'file')}.${skipped.describe()}\n`);
    return unreadable > 0 ? 2 : 0;
  }
  const summary = `drops-auth scan: found ${plural(found, 'API key')} in ${plural(filesWithKeys, 'file')}.${skipped.describe()}`;
  if (endpoint === null) {
    io.stderr.write(`${summary} Revoke each one by id (${keyRouteText('revoke')}), then remove it from the file and its history.\n`);
    return 1;
  }
  io.stderr.write(`${summary} Revoking ${plural(keys.size, 'distinct key')} by value at ${endpoint.href}:\n${keys.describe(false)}`);
  const accepted = await sendRevocations(endpoint, keys.secrets(), io, 'scan');
  io.stderr.write('Remove the keys from the files and their history, and mint replacements where they are needed.\n');
  return accepted ? 1 : 3;
}

function formatFinding(file: string, finding: ApiKeyFinding, json: boolean): string {
  if (json) return `${printable(JSON.stringify({ file, ...finding }))}\n`;
  return `${printable(file)}:${finding.line}:${finding.column}  prefix ${finding.prefix}  id ${finding.id}\n`;
}
