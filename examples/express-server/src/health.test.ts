import { describe, expect, it } from 'vitest';
import { useProxiedServer } from './testing/proxied-server.js';
import { bearer, useTestServer } from './testing/test-server.js';

describe('when PostgreSQL cannot be reached', () => {
  const proxied = useProxiedServer();

  it('answers /healthz and API keys with 503 (never 401) while it is down, and recovers without a restart', async () => {
    const { s: server, proxy } = proxied();
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
    // The key, and /healthz, answer again once the instance holds its cache lease anew
    // (docs/revocation.md, "Outage"): 503 until then, never a 401.
    const statuses: number[] = [];
    for (let i = 0; i < 200 && statuses.at(-1) !== 200; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      statuses.push((await server.fetch('/whoami', { headers: bearer(apiKey) })).status);
    }
    expect(statuses.at(-1)).toBe(200);
    expect(statuses.filter((status) => status !== 503 && status !== 200)).toEqual([]);
    expect((await server.fetch('/healthz')).status).toBe(200);
  }, 30_000);
});

describe('when the embedded database is gone', () => {
  const embedded = useTestServer({ backend: 'pglite' });

  it('answers /healthz with 503', async () => {
    const server = embedded();
    expect((await server.fetch('/healthz')).status).toBe(200);
    await server.running.db.close();
    const res = await server.fetch('/healthz');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: 'database unreachable' });
  });
});
