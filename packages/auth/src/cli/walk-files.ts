import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { GitIgnore } from './git-ignore.js';

/** Directory names never descended into, inside git or not. */
export const ALWAYS_SKIPPED = new Set(['node_modules', '.git']);

/** A file to scan: the path to print (as the user wrote it) and the absolute one. */
export interface WalkedFile {
  readonly display: string;
  readonly absolute: string;
}

interface Entry {
  readonly display: string;
  readonly absolute: string;
  readonly directory: boolean;
}

/**
 * The regular files under `directory`, recursively, sorted, skipping `node_modules`, `.git`,
 * symbolic links, and what git ignores when the directory is inside a git working tree. One
 * `git check-ignore` call per depth level, so ignored directories are never entered.
 */
export async function walkFiles(directory: string): Promise<WalkedFile[]> {
  const git = GitIgnore.at(directory);
  const files: WalkedFile[] = [];
  let level: Entry[] = [{ display: directory, absolute: resolve(directory), directory: true }];
  while (level.length > 0) {
    const next: Entry[] = [];
    for (const dir of level) {
      const entries = await readdir(dir.absolute, { withFileTypes: true });
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        if (entry.isDirectory() && ALWAYS_SKIPPED.has(entry.name)) continue;
        if (!entry.isDirectory() && !entry.isFile()) continue; // symlinks, sockets, devices
        next.push({
          display: join(dir.display, entry.name),
          absolute: join(dir.absolute, entry.name),
          directory: entry.isDirectory(),
        });
      }
    }
    const ignored = git?.ignored(next.map((entry) => entry.absolute)) ?? new Set<string>();
    level = [];
    for (const entry of next) {
      if (ignored.has(entry.absolute)) continue;
      if (entry.directory) level.push(entry);
      else files.push({ display: entry.display, absolute: entry.absolute });
    }
  }
  return files.sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
}
