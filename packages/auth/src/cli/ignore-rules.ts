import type { Dirent } from 'node:fs';
import { lstat, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Ignore files larger than this are not read (git itself refuses them past 100 MiB). */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

/** One ignore file's rules and the directory its patterns are relative to. */
interface Level {
  readonly base: string;
  readonly rules: Ignore;
}

/**
 * Git's ignore rules for a walk through a working tree, read from the files themselves with the
 * `ignore` package (what eslint and prettier use): `.git/info/exclude`, then the `.gitignore` of
 * every directory from the working tree's root down, a deeper file's last matching pattern
 * winning, negations included. No git process runs: the scanned directory may come from anyone,
 * and git runs programs its `.git/config` names (`core.fsmonitor`, hooks). So the user's global
 * excludes (`core.excludesFile`) do not count, and patterns match case-sensitively (as git on
 * Linux): both only ever make the scan read more files, never fewer.
 */
export class IgnoreRules {
  readonly #levels: readonly Level[];

  private constructor(levels: readonly Level[]) {
    this.#levels = levels;
  }

  /** No rules: outside any git working tree. */
  static readonly NONE = new IgnoreRules([]);

  /**
   * The rules in force in the directory that holds `directory`: those of the working tree around
   * it, from its root down to there; {@link NONE} outside a working tree or when `directory` is
   * the root itself. The walk then {@link enter}s `directory` like any other.
   */
  static async above(directory: string): Promise<IgnoreRules> {
    const start = resolve(directory);
    if (await isRepositoryRoot(start)) return IgnoreRules.NONE;
    const below: string[] = [];
    let root = dirname(start);
    for (; !(await isRepositoryRoot(root)); root = dirname(root)) {
      if (dirname(root) === root) return IgnoreRules.NONE;
      below.unshift(root);
    }
    let rules = await IgnoreRules.NONE.#enter(root, true, true);
    for (const dir of below) rules = await rules.#enter(dir, false, true);
    return rules;
  }

  /**
   * The rules in force inside `directory`, reached from the one these rules are in force in;
   * `entries` is what it holds. A `.gitignore` there adds its rules; a `.git` makes it a nested
   * repository, with rules of its own only (as in git).
   */
  async enter(directory: string, entries: readonly Dirent[]): Promise<IgnoreRules> {
    const repositoryRoot = entries.some((entry) => entry.name === '.git') && (await isRepositoryRoot(directory));
    const hasIgnoreFile = entries.some((entry) => entry.name === '.gitignore' && entry.isFile());
    return this.#enter(directory, repositoryRoot, hasIgnoreFile);
  }

  /** Whether the rules ignore `absolute` (a directory when `directory`), below the directories entered. */
  ignores(absolute: string, directory: boolean): boolean {
    for (let i = this.#levels.length - 1; i >= 0; i--) {
      const { base, rules } = this.#levels[i]!;
      const path = relative(base, absolute).split(sep).join('/');
      const result = testPath(rules, directory ? `${path}/` : path);
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return false;
  }

  /** A repository's root starts afresh: its parent's rules do not reach into it (as in git). */
  async #enter(directory: string, repositoryRoot: boolean, hasIgnoreFile: boolean): Promise<IgnoreRules> {
    if (!repositoryRoot && (this.#levels.length === 0 || !hasIgnoreFile)) return this; // outside git, or nothing new
    const levels = repositoryRoot ? [] : [...this.#levels];
    if (repositoryRoot) levels.push(await level(directory, join(directory, '.git', 'info', 'exclude')));
    if (hasIgnoreFile) levels.push(await level(directory, join(directory, '.gitignore')));
    return new IgnoreRules(levels);
  }
}

/** `rules.test(path)`; a name the package refuses as a path (it throws) matches no rule, so it is scanned. */
function testPath(rules: Ignore, path: string): { ignored: boolean; unignored: boolean } {
  try {
    return rules.test(path);
  } catch {
    return { ignored: false, unignored: false };
  }
}

/** The rules of the ignore file at `path`; none when it is missing, not a regular file (a symlink) or too large. */
async function level(base: string, path: string): Promise<Level> {
  const rules = ignore({ ignorecase: false });
  try {
    const info = await lstat(path);
    if (info.isFile() && info.size <= MAX_IGNORE_FILE_BYTES) rules.add(await readFile(path, 'utf8'));
  } catch {
    // no such file, or unreadable: no rules
  }
  return { base, rules };
}

/**
 * Whether `directory` is a working tree's root as git sees it: a `.git` directory holding `HEAD`,
 * `objects` and `refs`, or a `.git` file (`gitdir: …`, a worktree or submodule). A stray `.git`
 * folder is not a repository.
 */
async function isRepositoryRoot(directory: string): Promise<boolean> {
  const git = join(directory, '.git');
  try {
    const info = await lstat(git);
    if (info.isFile()) return info.size < 4096 && (await readFile(git, 'utf8')).startsWith('gitdir: ');
    if (!info.isDirectory()) return false;
    const [head, objects, refs] = await Promise.all(['HEAD', 'objects', 'refs'].map((name) => stat(join(git, name))));
    return head!.isFile() && objects!.isDirectory() && refs!.isDirectory();
  } catch {
    return false;
  }
}
