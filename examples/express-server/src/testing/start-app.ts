import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAuthenticator, createIdTokenVerifier, createKeyManager, type IdTokenVerifierOptions } from '@drops/auth';
import { PostgresKeyStore } from '@drops/auth-postgres';
import type { LocalIdentityProvider } from '@drops/auth/testing';
import { createApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/open-database.js';
import { createLogger } from '../logger.js';
import { migratedPgliteDir } from './pglite-template.js';
import type { TestClock } from './test-server.js';

/** Verifier tuning a test may set; issuer, audience and JWKS URL come from the identity provider. */
export type VerifierTuning = Omit<IdTokenVerifierOptions, 'issuer' | 'audience' | 'jwksUrl' | 'clock'>;

/** The reference server's app, built through `createApp` with a verifier the test tunes. */
export interface TestApp {
  readonly url: string;
  readonly logs: string[];
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Builds the reference server's app from its parts (as `startServer` does) on PGlite (a copy of the run's template),
 * with an ID token verifier for `idp` that runs on `clock` and takes `tuning` (short fetch
 * timeouts, stale windows): the server's configuration does not expose those, and identity
 * provider outages are tested with them without sleeping.
 */
export async function startAppWithVerifier(idp: LocalIdentityProvider, clock: TestClock, tuning: VerifierTuning = {}): Promise<TestApp> {
  const data = await migratedPgliteDir();
  const config = loadConfig({ PORT: '0', DATA_DIR: data.dataDir, ANON_DEPLOY_LIMIT: '100000' });
  const logs: string[] = [];
  const logger = createLogger({ level: 'info' }, { write: (line: string) => void logs.push(line) });
  const db = await openDatabase(config.database);
  const keyStore = new PostgresKeyStore({ db });
  const verifier = createIdTokenVerifier({ ...idp.verifierOptions, clock: clock.now, ...tuning });
  const app = createApp({
    config,
    authenticator: createAuthenticator({ keyStore, idTokenVerifier: verifier }),
    keys: createKeyManager({ keyStore, clock: clock.now, maxKeysPerAccount: config.maxKeysPerAccount }),
    db,
    logger,
    devIdentity: null,
    clock: clock.now,
    lifecycle: { shuttingDown: false },
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    logs,
    fetch: (path, init) => fetch(`${url}${path}`, init),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await keyStore.close();
      await db.close();
      await data.remove();
    },
  };
}
