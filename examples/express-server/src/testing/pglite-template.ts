import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject, onTestFinished } from 'vitest';
import { MEMORY_BACKED_DIR } from './memory-backed-dir.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PGlite data folder with both migration sets applied, made once per run (see pglite-template-setup.ts). */
    pgliteTemplate: string;
  }
}

/** A PGlite data folder of one server's own, and how to remove it once that server has exited. */
export interface PgliteDataDir {
  /** A `DATA_DIR`: a copy of the migrated template, or a folder yet to create where no template was made. */
  readonly dataDir: string;
  remove(): Promise<void>;
}

/**
 * A PGlite data folder of one server's own (a `DATA_DIR`, as the server's `.data` is in production):
 * a copy of the run's migrated template, so the server's start runs no initdb and its migrations
 * find nothing to do. Outside the projects whose global setup makes the template, a folder the
 * server creates (initdb at start).
 */
export async function migratedPgliteDir(prefix = 'drops-pglite-'): Promise<PgliteDataDir> {
  const template = inject('pgliteTemplate');
  const parent = await mkdtemp(join(MEMORY_BACKED_DIR, prefix));
  const dataDir = join(parent, 'data');
  // cp(1): node's fs.cp spends a second of CPU on the folder's thousand files, cp a tenth of that.
  if (template !== undefined) await promisify(execFile)('cp', ['-R', template, dataDir]);
  return { dataDir, remove: () => rm(parent, { recursive: true, force: true }) };
}

/** A `DATA_DIR` for a server the running test starts: a copy of the template, removed when the test finishes. */
export async function dataDirForTest(): Promise<string> {
  const data = await migratedPgliteDir();
  onTestFinished(() => data.remove());
  return data.dataDir;
}
