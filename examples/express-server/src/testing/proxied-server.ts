import { afterAll, beforeAll } from 'vitest';
import { startTcpProxy, type TcpProxy } from '@drops/auth/testing';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { startTestServer, type TestServer } from './test-server.js';

/** A reference server whose PostgreSQL connections all pass through a proxy the test can cut. */
export interface ProxiedServer {
  readonly s: TestServer;
  readonly proxy: TcpProxy;
  readonly db: TestDatabase;
}

/**
 * Starts, for the enclosing `describe` (or file), a server on a fresh database reached through a
 * {@link TcpProxy}, so an outage can be played without taking the database from any other test.
 * Restores the proxy before stopping everything.
 */
export function useProxiedServer(env: Record<string, string> = {}): () => ProxiedServer {
  let running: ProxiedServer | undefined;
  let db: TestDatabase | undefined;
  let proxy: TcpProxy | undefined;
  let s: TestServer | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
    const url = new URL(db.url);
    url.port = String(proxy.port);
    s = await startTestServer({ backend: 'postgres', databaseUrl: url.toString(), env });
    running = { s, proxy, db };
  }, 60_000);
  afterAll(async () => {
    await proxy?.restore();
    await s?.close();
    await proxy?.close();
    await db?.drop();
  }, 30_000);
  return () => {
    if (running === undefined) throw new Error('proxied server not started');
    return running;
  };
}
