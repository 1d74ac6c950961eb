import { spawnSync } from 'node:child_process';

/**
 * Answers "does git ignore this path?" for paths inside one working tree, through
 * `git check-ignore`, so .gitignore, .git/info/exclude and the global excludes all count.
 */
export class GitIgnore {
  readonly #toplevel: string;

  private constructor(toplevel: string) {
    this.#toplevel = toplevel;
  }

  /** The working tree containing `directory`, or `null` outside git (or without git installed). */
  static at(directory: string): GitIgnore | null {
    const result = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: directory, encoding: 'utf8' });
    if (result.status !== 0 || typeof result.stdout !== 'string') return null;
    const toplevel = result.stdout.trim();
    return toplevel === '' ? null : new GitIgnore(toplevel);
  }

  /** The working tree's root. */
  get toplevel(): string {
    return this.#toplevel;
  }

  /** Which of `absolutePaths` git ignores: one `git check-ignore` for the whole batch. */
  ignored(absolutePaths: readonly string[]): Set<string> {
    if (absolutePaths.length === 0) return new Set();
    const result = spawnSync('git', ['check-ignore', '--stdin', '-z'], {
      cwd: this.#toplevel,
      input: absolutePaths.join('\0') + '\0',
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    // 0: some ignored, 1: none. Anything else (a nested repository, say): ignore nothing.
    if (result.status !== 0) return new Set();
    return new Set(result.stdout.split('\0').filter((path) => path !== ''));
  }
}
