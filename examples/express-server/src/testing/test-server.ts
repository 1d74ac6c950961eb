import { LocalIdentityProvider, LocalSecretScanningKeys } from '@drops/auth/testing';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { startServer, type RunningServer } from '../start-server.js';
import { migratedPgliteDir } from './pglite-template.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/** Where a test server keeps its data. */
export type Backend = 'pglite' | 'postgres';
export const BACKENDS: readonly Backend[] = ['pglite', 'postgres'];

/** A clock tests move forward instead of sleeping. */
export interface TestClock {
  now(): number;
  advance(ms: number): void;
}

export function testClock(): TestClock {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance: (ms) => {
      offset += ms;
    },
  };
}

export interface StartTestServerOptions {
  readonly backend: Backend;
  /** For `postgres`: the database to use (default: a fresh one, dropped on close). */
  readonly databaseUrl?: string;
  /** An external identity provider; `'dev'` runs the built-in one. Default: a new LocalIdentityProvider. */
  readonly idp?: LocalIdentityProvider | 'dev';
  /** Extra environment, over the test defaults. */
  readonly env?: Record<string, string>;
  /** Serve GitHub's secret scanning key list on loopback (`GITHUB_SECRET_SCANNING_KEYS_URL`), as `github`. */
  readonly github?: boolean;
}

/** The real server, in process, on a random loopback port, with helpers. */
export interface TestServer {
  readonly url: string;
  readonly running: RunningServer;
  readonly idp: LocalIdentityProvider | null;
  /** GitHub's side of secret scanning (signs alerts), when started with `github: true`. */
  readonly github: LocalSecretScanningKeys | null;
  readonly clock: TestClock;
  /** Every log line written so far (JSON). */
  readonly logs: string[];
  readonly databaseUrl: string | null;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** An ID token for `sub`, from the configured identity provider (or the dev one). */
  token(sub?: string): Promise<string>;
  /** Mints an API key for `sub` through `POST /keys`. */
  mintKey(sub?: string, name?: string): Promise<{ apiKey: string; id: string }>;
  close(): Promise<void>;
}

export const bearer = (credential: string): Record<string, string> => ({ authorization: `Bearer ${credential}` });

export async function startTestServer(options: StartTestServerOptions): Promise<TestServer> {
  const cleanups: Array<() => Promise<void>> = [];
  try {
    let idp: LocalIdentityProvider | null = null;
    if (options.idp === undefined) {
      idp = await LocalIdentityProvider.start();
      const owned = idp;
      cleanups.push(() => owned.close());
    } else if (options.idp !== 'dev') {
      idp = options.idp;
    }
    let github: LocalSecretScanningKeys | null = null;
    if (options.github === true) {
      const owned = await LocalSecretScanningKeys.start();
      cleanups.push(() => owned.close());
      github = owned;
    }
    let databaseUrl: string | null = null;
    /** `DATABASE_URL` or `DATA_DIR`. */
    let storage: Record<string, string>;
    if (options.backend === 'postgres') {
      if (options.databaseUrl !== undefined) databaseUrl = options.databaseUrl;
      else {
        const db: TestDatabase = await createTestDatabase();
        cleanups.push(() => db.drop());
        databaseUrl = db.url;
      }
      storage = { DATABASE_URL: databaseUrl };
    } else {
      const data = await migratedPgliteDir();
      cleanups.push(() => data.remove());
      storage = { DATA_DIR: data.dataDir };
    }
    const env: Record<string, string> = {
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ANON_DEPLOY_LIMIT: '100000',
      SWEEP_INTERVAL_SECONDS: '3600',
      SHUTDOWN_TIMEOUT_MS: '2000',
      ...storage,
      ...(databaseUrl !== null && options.idp === 'dev' ? { DEV_IDENTITY_PROVIDER: 'on' } : {}),
      ...(idp !== null ? { AUTH_ISSUER: idp.issuer, AUTH_AUDIENCE: idp.audience, AUTH_JWKS_URL: idp.jwksUrl } : {}),
      ...(github !== null ? { GITHUB_SECRET_SCANNING_KEYS_URL: github.keysUrl } : {}),
      ...options.env,
    };
    const logs: string[] = [];
    const logger = createLogger({ level: env['LOG_LEVEL']! }, { write: (line: string) => void logs.push(line) });
    const clock = testClock();
    const running = await startServer(loadConfig(env), { logger, clock: clock.now });
    cleanups.unshift(() => running.close());

    const fetchPath = (path: string, init?: RequestInit): Promise<Response> => fetch(`${running.url}${path}`, init);
    const token = async (sub = 'alice'): Promise<string> => {
      if (idp !== null) return idp.mintIdToken({ sub });
      const res = await fetchPath('/dev/token', { method: 'POST', body: JSON.stringify({ name: sub }) });
      if (res.status !== 200) throw new Error(`POST /dev/token answered ${res.status}`);
      return ((await res.json()) as { idToken: string }).idToken;
    };
    let closed: Promise<void> | null = null;
    return {
      url: running.url,
      running,
      idp,
      github,
      clock,
      logs,
      databaseUrl,
      fetch: fetchPath,
      token,
      async mintKey(sub = 'alice', name?: string) {
        const res = await fetchPath('/keys', {
          method: 'POST',
          headers: bearer(await token(sub)),
          ...(name !== undefined ? { body: JSON.stringify({ name }) } : {}),
        });
        if (res.status !== 201) throw new Error(`POST /keys answered ${res.status}: ${await res.text()}`);
        return (await res.json()) as { apiKey: string; id: string };
      },
      close: () =>
        (closed ??= (async () => {
          for (const cleanup of cleanups) await cleanup();
        })()),
    };
  } catch (error) {
    for (const cleanup of cleanups) await cleanup().catch(() => {});
    throw error;
  }
}

/** Starts a test server before the enclosing `describe`'s tests and closes it after. */
export function useTestServer(options: StartTestServerOptions): () => TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(options);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  }, 30_000);
  return () => {
    if (server === undefined) throw new Error('test server not started');
    return server;
  };
}
