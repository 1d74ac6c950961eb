import { fromPGlite } from './from-pglite.js';
import type { Queryable } from './queryable.js';
import { z } from 'zod';
import { parseOptions } from './parse-options.js';

/**
 * Options of {@link openPGlite} (and {@link openPGliteKeyStore}).
 *
 * @example
 * ```ts
 * const options: OpenPGliteOptions = { dataDir: process.env.DATA_DIR ?? '.data' };
 * ```
 */
export interface OpenPGliteOptions {
  /** A folder for the data (created if missing), or `':memory:'` for a database that ends with the process. */
  readonly dataDir: string;
}

/** The options of {@link openPGlite}, for the schemas that add to them. @internal */
export const openPGliteShape = { dataDir: z.string().min(1, "must be a folder path or ':memory:'") };

const optionsSchema = z.strictObject(openPGliteShape, { error: 'options are required' });

/**
 * Opens embedded PostgreSQL (PGlite) as a {@link Queryable}: no server to run. Imports
 * `@electric-sql/pglite` only when called. A data folder is for one process at a time: close it
 * before another opens it.
 *
 * @example
 * ```ts
 * const db = await openPGlite({ dataDir: '.data' });
 * await migrateKeyStore(db);
 * ```
 */
export async function openPGlite(options: OpenPGliteOptions): Promise<Queryable> {
  parseOptions('openPGlite', optionsSchema, options);
  const { PGlite } = await import('@electric-sql/pglite');
  const db = options.dataDir === ':memory:' ? await PGlite.create() : await PGlite.create(options.dataDir);
  return fromPGlite(db);
}
