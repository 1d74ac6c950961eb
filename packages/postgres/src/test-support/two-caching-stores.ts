import { afterAll, beforeAll } from 'vitest';
import { fromPgPool } from '../from-pg-pool.js';
import { migrateKeyStore } from '../key-store-migrations.js';
import { PostgresKeyStore } from '../postgres-key-store.js';
import type { Queryable } from '../queryable.js';
import { freshDatabase } from './fresh-database.js';

/** Two caching store instances on one migrated database, and a connection outside both. */
export interface TwoCachingStores {
  /** The first instance, on a pool of its own. */
  readonly a: PostgresKeyStore;
  /** The second instance, on a pool of its own: it learns A's changes only as another process would. */
  readonly b: PostgresKeyStore;
  /** Plain SQL, no store: an operator's connection (it ran the migrations). */
  readonly sql: Queryable;
}

/**
 * For a test file about what one instance learns of another's (or an operator's) changes: before
 * all its tests, a fresh database labelled `label`, migrated, with two store instances; after
 * them, both closed and the database dropped. Read the fields inside tests, once set up.
 */
export function twoCachingStores(label: string): TwoCachingStores {
  let made: TwoCachingStores | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const database = await freshDatabase(label);
    drop = () => database.drop();
    const sql = fromPgPool(database.pool());
    await migrateKeyStore(sql);
    const a = new PostgresKeyStore({ db: fromPgPool(database.pool()), closeDatabase: true });
    const b = new PostgresKeyStore({ db: fromPgPool(database.pool()), closeDatabase: true });
    made = { a, b, sql };
  });
  afterAll(async () => {
    await Promise.all([made?.a.close(), made?.b.close()]);
    await made?.sql.close();
    await drop?.();
  });
  const set = (): TwoCachingStores => {
    if (made === undefined) throw new Error('twoCachingStores: read the stores inside a test, once beforeAll has run');
    return made;
  };
  return {
    get a() {
      return set().a;
    },
    get b() {
      return set().b;
    },
    get sql() {
      return set().sql;
    },
  };
}
