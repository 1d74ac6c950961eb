import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { IgnoreRules } from './ignore-rules.js';
import type { SkippedPaths } from './skipped-paths.js';

/** Directory names never descended into, inside git or not. */
export const ALWAYS_SKIPPED = new Set(['node_modules', '.git']);

/** A file to scan: the path to print (as the user wrote it) and the absolute one. */
export interface WalkedFile {
  readonly display: string;
  readonly absolute: string;
}

interface Directory {
  readonly display: string;
  readonly absolute: string;
  /** The ignore rules in force in the directory that holds this one. */
  readonly rulesAbove: IgnoreRules;
}

/**
 * The regular files under `directory`, recursively, sorted, skipping `node_modules`, `.git`,
 * symbolic links, and what git would ignore when the directory is inside a git working tree
 * ({@link IgnoreRules}: read from the ignore files, no git process runs). Ignored directories are
 * never entered. Each path skipped is counted in `skipped`.
 */
export async function walkFiles(directory: string, skipped: SkippedPaths): Promise<WalkedFile[]> {
  const files: WalkedFile[] = [];
  const pending: Directory[] = [{ display: directory, absolute: resolve(directory), rulesAbove: await IgnoreRules.above(directory) }];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    const entries = await readdir(dir.absolute, { withFileTypes: true });
    const rules = await dir.rulesAbove.enter(dir.absolute, entries);
    for (const entry of entries) {
      const isDirectory = entry.isDirectory();
      if (isDirectory && ALWAYS_SKIPPED.has(entry.name)) {
        skipped.add('node_modules or .git');
        continue;
      }
      if (!isDirectory && !entry.isFile()) {
        skipped.add('not a regular file'); // symlinks, sockets, devices
        continue;
      }
      const absolute = join(dir.absolute, entry.name);
      if (rules.ignores(absolute, isDirectory)) {
        skipped.add('git-ignored');
        continue;
      }
      const display = join(dir.display, entry.name);
      if (isDirectory) pending.push({ display, absolute, rulesAbove: rules });
      else files.push({ display, absolute });
    }
  }
  return files.sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
}
