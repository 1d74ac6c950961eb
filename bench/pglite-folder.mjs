/**
 * A fresh folder for an embedded PGlite database, the way the reference server keeps its store by
 * default (`DATA_DIR`, `.data`): the benches' PGlite servers run on one of these, never on
 * `:memory:`. PGlite's in-memory file system puts about a third of the processes that open it on a
 * slow path of V8 for the rest of their life, on every request (bench/METHOD.md, "An in-memory
 * PGlite slows a third of processes"), which would be measured as the cost of drops auth.
 *
 * Each folder is removed when the process that asked for it exits.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const folders = [];
process.on('exit', () => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A path for `DATA_DIR` (or `openPGliteKeyStore({ dataDir })`) in a new empty folder. */
export function pgliteFolder() {
  const folder = mkdtempSync(join(tmpdir(), 'drops-bench-pglite-'));
  folders.push(folder);
  return join(folder, 'data');
}
