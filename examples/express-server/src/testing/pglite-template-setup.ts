import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPGlite } from '@drops/auth-postgres';
import { migrateDatabase } from '../db/open-database.js';
import { MEMORY_BACKED_DIR } from './memory-backed-dir.js';

/**
 * Vitest global setup: one PGlite data folder, migrated as the server does at start-up, for the
 * whole run; `migratedPgliteDir()` copies it for each server (see pglite-template.ts). PGlite's
 * initdb is most of a server's start (seconds on a busy two-core machine), and a copy skips it.
 * Removed after the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const parent = await mkdtemp(join(MEMORY_BACKED_DIR, 'drops-pglite-template-'));
  const template = join(parent, 'data');
  const db = await openPGlite({ dataDir: template });
  try {
    await migrateDatabase(db);
  } finally {
    await db.close();
  }
  project.provide('pgliteTemplate', template);
  return () => rm(parent, { recursive: true, force: true });
}
