import { open, stat } from 'node:fs/promises';
import type { CliIo } from './cli-io.js';
import { parseCommandArgs } from './parse-command-args.js';
import { findApiKeys, type ApiKeyFinding } from './find-api-keys.js';
import { SCAN_HELP } from './help-text.js';
import { UsageError } from './usage-error.js';
import { walkFiles, type WalkedFile } from './walk-files.js';

/** git's rule: a NUL byte in the first 8000 bytes makes a file binary. */
const BINARY_PROBE_BYTES = 8000;

/** Files larger than this are not read (they are reported as skipped). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

type ReadResult = { kind: 'text'; text: string } | { kind: 'binary' } | { kind: 'too_large' };

async function readTextFile(path: string): Promise<ReadResult> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size > MAX_FILE_BYTES) return { kind: 'too_large' };
    const buffer = await handle.readFile();
    if (buffer.subarray(0, BINARY_PROBE_BYTES).includes(0)) return { kind: 'binary' };
    return { kind: 'text', text: buffer.toString('utf8') };
  } finally {
    await handle.close();
  }
}

async function filesOf(paths: readonly string[]): Promise<WalkedFile[]> {
  const files: WalkedFile[] = [];
  for (const path of paths) {
    let info;
    try {
      info = await stat(path);
    } catch {
      throw new UsageError(`no such file or directory: ${path}`);
    }
    if (info.isDirectory()) files.push(...(await walkFiles(path)));
    else if (info.isFile()) files.push({ display: path, absolute: path });
    else throw new UsageError(`not a file or directory: ${path}`);
  }
  return files;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * `drops-auth scan <paths...>`: prints every API key found as `file:line:column`, prefix and
 * id, never the secret. Resolves 1 when any is found, 0 when clean, 2 when a file could not be
 * read; throws `UsageError` (exit 2) for bad arguments.
 */
export async function scanCommand(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandArgs(args, SCAN_HELP, io);
  if (parsed === null) return 0;
  const { json, positionals } = parsed;
  if (positionals.length === 0) throw new UsageError('scan needs at least one file or directory, e.g. drops-auth scan .');

  const files = await filesOf(positionals);
  let found = 0;
  let filesWithKeys = 0;
  let unreadable = 0;
  for (const file of files) {
    let result: ReadResult;
    try {
      result = await readTextFile(file.absolute);
    } catch (error) {
      unreadable++;
      io.stderr.write(`drops-auth scan: cannot read ${file.display}: ${(error as NodeJS.ErrnoException).code ?? 'error'}\n`);
      continue;
    }
    if (result.kind === 'too_large') {
      io.stderr.write(`drops-auth scan: skipped ${file.display}: larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB\n`);
      continue;
    }
    if (result.kind === 'binary') continue;
    const findings = findApiKeys(result.text);
    if (findings.length === 0) continue;
    found += findings.length;
    filesWithKeys++;
    for (const finding of findings) io.stdout.write(formatFinding(file.display, finding, json));
  }

  if (found > 0) {
    io.stderr.write(
      `drops-auth scan: found ${plural(found, 'API key')} in ${plural(filesWithKeys, 'file')}. ` +
        'Revoke each one by id (DELETE /keys/<id>), then remove it from the file and its history.\n',
    );
    return 1;
  }
  io.stderr.write(`drops-auth scan: no API keys found in ${plural(files.length, 'file')}.\n`);
  return unreadable > 0 ? 2 : 0;
}

function formatFinding(file: string, finding: ApiKeyFinding, json: boolean): string {
  if (json) return `${JSON.stringify({ file, ...finding })}\n`;
  return `${file}:${finding.line}:${finding.column}  prefix ${finding.prefix}  id ${finding.id}\n`;
}
