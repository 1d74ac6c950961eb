import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPGlite } from '../open-pglite.js';
import { MEMORY_BACKED_DIR } from './memory-backed-dir.js';

/**
 * Vitest global setup: one PGlite data folder with a fresh cluster (initdb, nothing migrated) for
 * the whole run, which `pgliteDataDir()` copies for each test (see pglite-data-dir.ts). PGlite's
 * initdb costs about 7 s of CPU, a copy's start a fifth of that. Removed after the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const parent = await mkdtemp(join(MEMORY_BACKED_DIR, 'drops-pglite-cluster-'));
  const cluster = join(parent, 'data');
  await (await openPGlite({ dataDir: cluster })).close();
  project.provide('pgliteCluster', cluster);
  return () => rm(parent, { recursive: true, force: true });
}
