import { LocalIdentityProvider } from '@drops/auth/testing';
import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { startTestServer, type TestServer } from './test-server.js';

/** Two reference servers on one fresh PostgreSQL database, sharing one identity provider. */
export interface TwoInstances {
  readonly a: TestServer;
  readonly b: TestServer;
  readonly db: TestDatabase;
  readonly idp: LocalIdentityProvider;
}

/**
 * Starts two instances for the enclosing `describe` (with `env` over the test defaults), together on an empty database (so their
 * migrations race, as several instances starting at once do), and stops them after.
 */
export function useTwoInstances(env: Record<string, string> = {}): () => TwoInstances {
  let running: TwoInstances | undefined;
  let idp: LocalIdentityProvider | undefined;
  let db: TestDatabase | undefined;
  const servers: TestServer[] = [];
  beforeAll(async () => {
    idp = await LocalIdentityProvider.start();
    db = await createTestDatabase();
    const options = { backend: 'postgres', databaseUrl: db.url, idp, env } as const;
    const [a, b] = await Promise.all([startTestServer(options), startTestServer(options)]);
    servers.push(a, b);
    running = { a, b, db, idp };
  }, 60_000);
  afterAll(async () => {
    for (const server of servers) await server.close();
    await idp?.close();
    await db?.drop();
  }, 30_000);
  return () => {
    if (running === undefined) throw new Error('instances not started');
    return running;
  };
}
