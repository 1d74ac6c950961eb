import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';

/**
 * Where PGlite data folders of tests go: Linux's RAM-backed `/dev/shm` where there is one, so that a
 * file-backed PGlite writes as fast as an in-memory one, else the system's temporary folder.
 */
export const MEMORY_BACKED_DIR = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
