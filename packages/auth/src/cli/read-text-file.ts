import { open } from 'node:fs/promises';

/** git's rule: a NUL byte in the first 8000 bytes makes a file binary. */
const BINARY_PROBE_BYTES = 8000;

/** Files (and stdin) larger than this are not read: they are reported as skipped. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** A file's text, or why it was not read. */
export type ReadResult = { kind: 'text'; text: string } | { kind: 'binary' } | { kind: 'too_large' };

/** Reads a file as UTF-8 text unless it is binary or over {@link MAX_FILE_BYTES}. */
export async function readTextFile(path: string): Promise<ReadResult> {
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
