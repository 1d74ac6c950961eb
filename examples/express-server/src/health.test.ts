import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './testing/test-database.js';
import { TcpProxy } from './testing/tcp-proxy.js';
import { bearer, startTestServer, type TestServer } from './testing/test-server.js';

describe('when PostgreSQL cannot be reached', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let server: TestServer;

  beforeAll(async () => {
    db = await createTestDatabase();
    proxy = await TcpProxy.start('127.0.0.1', 5432);
    const url = new URL(db.url);
    url.port = String(proxy.port);
    server = await startTestServer({ backend: 'postgres', databaseUrl: url.toString() });
  }, 60_000);

  afterAll(async () => {
    await proxy?.restore();
    await server?.close();
    await proxy?.close();
    await db?.drop();
  }, 30_000);

  it('answers /healthz and API keys with 503 (never 401) while it is down, and recovers without a restart', async () => {
    const { apiKey } = await server.mintKey('outage');
    expect((await server.fetch('/healthz')).status).toBe(200);

    await proxy.cut();
    const health = await server.fetch('/healthz');
    expect(health.status).toBe(503);
    expect(health.headers.get('retry-after')).toBe('5');
    expect(await health.json()).toEqual({ error: 'database unreachable' });
    const byKey = await server.fetch('/whoami', { headers: bearer(apiKey) });
    expect(byKey.status).toBe(503);
    expect(byKey.headers.get('retry-after')).toMatch(/^\d+$/);
    const list = await server.fetch('/drops', { headers: bearer(await server.token('outage')) });
    expect(list.status).toBe(503);
    expect(list.headers.get('retry-after')).toBe('5');
    expect(typeof ((await list.json()) as { error: unknown }).error).toBe('string');

    await proxy.restore();
    expect((await server.fetch('/healthz')).status).toBe(200);
    expect((await server.fetch('/whoami', { headers: bearer(apiKey) })).status).toBe(200);
  }, 30_000);
});

describe('when the embedded database is gone', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ backend: 'pglite' });
  }, 60_000);
  afterAll(() => server?.close(), 30_000);

  it('answers /healthz with 503', async () => {
    expect((await server.fetch('/healthz')).status).toBe(200);
    await server.running.db.close();
    const res = await server.fetch('/healthz');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: 'database unreachable' });
  });
});
