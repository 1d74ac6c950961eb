import { plural } from './plural.js';
import { MAX_FILE_BYTES } from './read-text-file.js';

/** Why `scan` left a path out, in the order its summary lists them. */
const REASONS = {
  'git-ignored': (n: number) => `${plural(n, 'git-ignored path')} (name a file to scan it anyway)`,
  'node_modules or .git': (n: number) => `${n} node_modules or .git ${n === 1 ? 'directory' : 'directories'}`,
  'not a regular file': (n: number) => plural(n, 'symbolic link or special file'),
  binary: (n: number) => plural(n, 'binary file'),
  'too large': (n: number) => `${plural(n, 'file')} larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB`,
} as const;

/** A reason `scan` skips a path. */
export type SkipReason = keyof typeof REASONS;

/**
 * How many paths `scan` skipped, by reason, for its summary: a scan that says "no API keys found"
 * must also say what it did not read (a git-ignored `.env` is where keys leak).
 */
export class SkippedPaths {
  readonly #counts = new Map<SkipReason, number>();

  add(reason: SkipReason): void {
    this.#counts.set(reason, (this.#counts.get(reason) ?? 0) + 1);
  }

  /** ` Skipped 2 git-ignored paths (…), 1 binary file.`, or `''` when nothing was skipped. */
  describe(): string {
    const parts = (Object.keys(REASONS) as SkipReason[]).flatMap((reason) => {
      const count = this.#counts.get(reason) ?? 0;
      return count === 0 ? [] : [REASONS[reason](count)];
    });
    return parts.length === 0 ? '' : ` Skipped ${parts.join(', ')}.`;
  }
}
