import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { migrateKeyStore } from '../key-store-migrations.js';
import { openPGlite } from '../open-pglite.js';

/** A PGlite data folder of one test's own, and how to remove it once its store is closed. */
export interface PGliteDir {
  readonly dataDir: string;
  remove(): Promise<void>;
}

/** The test file's migrated template, made on first use. */
let template: Promise<{ parent: string; dir: string }> | undefined;

/**
 * A fresh PGlite data folder with the key store's migrations applied: a copy of one template made
 * per test file. A fresh in-memory PGlite runs initdb and every migration, seconds of CPU on a
 * busy two-core machine (past a minute in CI rehearsals); opening a copy takes under a second and
 * its migrations find nothing to do. Call {@link removePGliteTemplate} after all tests.
 */
export async function migratedPGliteDir(): Promise<PGliteDir> {
  template ??= (async () => {
    const parent = await mkdtemp(join(tmpdir(), 'drops-pglite-template-'));
    const dir = join(parent, 'data');
    const db = await openPGlite({ dataDir: dir });
    try {
      await migrateKeyStore(db);
    } finally {
      await db.close();
    }
    return { parent, dir };
  })();
  const { dir } = await template;
  const parent = await mkdtemp(join(tmpdir(), 'drops-pglite-'));
  const dataDir = join(parent, 'data');
  // cp(1): node's fs.cp spends a second of CPU on the folder's thousand files, cp a tenth of that.
  await promisify(execFile)('cp', ['-R', dir, dataDir]);
  return { dataDir, remove: () => rm(parent, { recursive: true, force: true }) };
}

/** Removes the template, if one was made. */
export async function removePGliteTemplate(): Promise<void> {
  const made = template;
  template = undefined;
  if (made !== undefined) await rm((await made).parent, { recursive: true, force: true });
}
