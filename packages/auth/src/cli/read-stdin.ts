import type { CliIo } from './cli-io.js';

/** All of stdin as UTF-8, or `null` once it passes `maxBytes` (the rest is not read). */
export async function readStdin(stdin: CliIo['stdin'], maxBytes: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > maxBytes) return null;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
