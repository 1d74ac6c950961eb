import { LocalIdentityProvider } from '@drops/auth/testing';
import { afterAll, beforeAll } from 'vitest';
import { killChildServers } from './child-server.js';
import { migratedPgliteDir, type PgliteDataDir } from './pglite-template.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import type { Backend } from './test-server.js';

/** What the tests of a describe block get: read them inside tests, after `beforeAll` ran. */
export interface KillableServerBackend {
  /** The identity provider every child server trusts. */
  readonly idp: LocalIdentityProvider;
  /** The environment a child server starts with: the identity provider and the backend's storage. */
  readonly env: Record<string, string>;
  /** The PGlite data folder (`pglite` backend), else `undefined`. */
  readonly dataDir: string | undefined;
  /** The scratch PostgreSQL database (`postgres` backend), else `undefined`. */
  readonly db: TestDatabase | undefined;
}

/**
 * For a describe block whose tests start child reference servers (and SIGKILL them) on `backend`:
 * an identity provider and fresh storage (a migrated PGlite folder named `prefix…`, or a scratch PostgreSQL
 * database) in `beforeAll`, and in `afterAll` every child server killed and everything removed.
 */
export function useKillableServerBackend(backend: Backend, prefix: string): KillableServerBackend {
  let idp: LocalIdentityProvider | undefined;
  let env: Record<string, string> | undefined;
  let data: PgliteDataDir | undefined;
  let db: TestDatabase | undefined;

  beforeAll(async () => {
    idp = await LocalIdentityProvider.start();
    const identity = { AUTH_ISSUER: idp.issuer, AUTH_AUDIENCE: idp.audience, AUTH_JWKS_URL: idp.jwksUrl };
    if (backend === 'pglite') {
      data = await migratedPgliteDir(prefix);
      env = { ...identity, DATA_DIR: data.dataDir };
    } else {
      db = await createTestDatabase();
      env = { ...identity, DATABASE_URL: db.url };
    }
  }, 60_000);

  afterAll(async () => {
    await killChildServers();
    await idp?.close();
    await db?.drop();
    await data?.remove();
  }, 60_000);

  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useKillableServerBackend: read inside a test, after beforeAll');
    return value;
  };
  return {
    get idp() {
      return ready(idp);
    },
    get env() {
      return ready(env);
    },
    get dataDir() {
      return data?.dataDir;
    },
    get db() {
      return db;
    },
  };
}
