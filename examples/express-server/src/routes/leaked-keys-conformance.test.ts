/**
 * The shared HTTP suite of the leaked-key routes (`describeLeakedKeysRoutes` of
 * `@drops/auth/testing/conformance`: every bad input, 400, 401, 413, 429, 503, the same 202 bytes,
 * the events) run against the reference server's own app, on PGlite and on PostgreSQL.
 */
import type { KeyStore } from '@drops/auth';
import { KEY_EVENTS_TABLE, KEYS_TABLE, PostgresKeyStore, type Queryable } from '@drops/auth-postgres';
import { describeLeakedKeysRoutes } from '@drops/auth/testing/conformance';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, it } from 'vitest';
import { createApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/open-database.js';
import { createLogger } from '../logger.js';
import { BACKENDS } from '../testing/test-server.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { migratedPgliteDir, type PgliteDataDir } from '../testing/pglite-template.js';

const api = { describe, it, beforeEach, afterEach, beforeAll, afterAll };

/**
 * The store with each use written at once rather than batched: the suite reads a key's first use
 * in the answer of the very request that used it (a MemoryKeyStore writes it synchronously; a
 * PostgresKeyStore batches uses off the hot path, every few seconds). Listing waits for the write.
 */
function writingUsesAtOnce(store: PostgresKeyStore): KeyStore {
  let written: Promise<void> = Promise.resolve();
  return new Proxy(store, {
    get(target, property) {
      if (property === 'recordUse') {
        return (...args: Parameters<PostgresKeyStore['recordUse']>) => {
          target.recordUse(...args);
          written = target.flushUses();
        };
      }
      if (property === 'listEvents') {
        return async (...args: Parameters<PostgresKeyStore['listEvents']>) => {
          await written;
          return target.listEvents(...args);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

for (const backend of BACKENDS) {
  describe(`reference server app (${backend})`, () => {
    let database: TestDatabase | null = null;
    let pglite: PgliteDataDir | undefined;
    let db: Queryable;
    const stores: PostgresKeyStore[] = [];

    beforeAll(async () => {
      if (backend === 'postgres') database = await createTestDatabase();
      else pglite = await migratedPgliteDir();
      db = await openDatabase(
        database !== null ? { kind: 'postgres', url: database.url, migrate: true } : { kind: 'pglite', dataDir: pglite!.dataDir },
      );
    }, 60_000);
    afterEach(async () => {
      await Promise.all(stores.splice(0).map((store) => store.close()));
    });
    afterAll(async () => {
      await db?.close();
      await database?.drop();
      await pglite?.remove();
    });

    describeLeakedKeysRoutes(api, `reference server (${backend})`, {
      keyStore: async () => {
        // A fresh store for each test, on the file's database emptied of keys and events.
        await db.query(`truncate ${KEYS_TABLE}, ${KEY_EVENTS_TABLE}`);
        const store = new PostgresKeyStore({ db, minUseIntervalMs: 0 });
        stores.push(store);
        return writingUsesAtOnce(store);
      },
      serve: async ({ authenticator, keys, leakedKeys }) => {
        const app = createApp({
          config: loadConfig({ PORT: '0', DATA_DIR: ':memory:' }),
          authenticator,
          keys,
          db,
          logger: createLogger({ level: 'silent' }, { write: () => {} }),
          devIdentity: null,
          clock: Date.now,
          lifecycle: { shuttingDown: false },
          leakedKeys,
        });
        const server = createServer(app);
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        return {
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          close: () =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        };
      },
    });
  });
}
