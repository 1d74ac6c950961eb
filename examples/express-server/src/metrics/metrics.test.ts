import { generateApiKey } from '@drops/auth';
import { describe, expect, it } from 'vitest';
import { useProxiedServer } from '../testing/proxied-server.js';
import { bearer, useTestServer } from '../testing/test-server.js';
import { createServerMetrics } from './server-metrics.js';

/** Every sample of a Prometheus text exposition, keyed by `name{labels}` as written. */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    found.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return found;
}

async function scrape(url: string, init?: RequestInit): Promise<Map<string, number>> {
  const res = await fetch(url, init);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return samples(await res.text());
}

/** How much each sample grew between two scrapes (absent before counts as 0). */
function growth(before: Map<string, number>, after: Map<string, number>): (key: string) => number {
  return (key) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
}

/** The answer to compare for "learns nothing": status, body and headers but the per-request ones. */
async function answer(res: Response): Promise<unknown> {
  const headers = [...res.headers].filter(([name]) => name !== 'date' && name !== 'x-request-id');
  return { status: res.status, headers, body: await res.text() };
}

const TOKEN = 'metrics-token-0123456789abcdef';

describe('GET /metrics on the metrics listener', () => {
  const server = useTestServer({ backend: 'pglite', env: { METRICS_TOKEN: TOKEN }, github: true });

  it('counts authentications by credential, outcome and reason, with their latency', async () => {
    const s = server();
    const metricsUrl = s.running.metricsUrl!;
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const { apiKey } = await s.mintKey('metrics-user');
    const token = await s.token('metrics-user');
    const before = await scrape(metricsUrl);

    for (let i = 0; i < 3; i++) expect((await s.fetch('/whoami', { headers: bearer(apiKey) })).status).toBe(200);
    expect((await s.fetch('/whoami', { headers: bearer(token) })).status).toBe(200);
    expect((await s.fetch('/whoami', { headers: bearer(`hp_${'U'.repeat(43)}`) })).status).toBe(401);
    expect((await s.fetch('/whoami')).status).toBe(401);
    expect((await s.fetch('/keys', { method: 'POST', headers: bearer(apiKey) })).status).toBe(401);

    const grew = growth(before, await scrape(metricsUrl));
    // The API key on POST /keys authenticates; the key manager then refuses it (a 401 on /keys).
    expect(grew('drops_auth_requests_total{credential="api_key",outcome="authenticated",reason="none"}')).toBe(4);
    expect(grew('drops_auth_requests_total{credential="id_token",outcome="authenticated",reason="none"}')).toBe(1);
    expect(grew('drops_auth_requests_total{credential="api_key",outcome="refused",reason="unknown_key"}')).toBe(1);
    expect(grew('drops_auth_requests_total{credential="none",outcome="refused",reason="missing"}')).toBe(1);
    expect(grew('drops_auth_authenticate_duration_seconds_count{credential="api_key",outcome="authenticated"}')).toBe(4);
    expect(grew('drops_auth_authenticate_duration_seconds_bucket{credential="api_key",outcome="authenticated",le="+Inf"}')).toBe(4);
    expect(grew('drops_auth_key_store_duration_seconds_count{operation="findActive"}')).toBe(5);
    // Where each lookup was answered: the known key from the in-process cache once it was read,
    // the unknown one from the database (on PGlite an unknown key is always a query).
    expect(grew('drops_auth_key_lookups_total{from="memory"}') + grew('drops_auth_key_lookups_total{from="store"}')).toBe(5);
    expect(grew('drops_auth_key_lookups_total{from="memory"}')).toBeGreaterThanOrEqual(3);
    expect(grew('drops_auth_key_lookups_total{from="store"}')).toBeGreaterThanOrEqual(1);
    expect(grew('drops_http_requests_total{method="GET",route="/whoami",status="200"}')).toBe(4);
    expect(grew('drops_http_requests_total{method="GET",route="none",status="401"}')).toBe(2);
    expect(grew('drops_http_requests_total{method="POST",route="/keys",status="401"}')).toBe(1);
  });

  it('counts JWKS fetches and key count, revocations and their wait, and has the process metrics', async () => {
    const s = server();
    const metricsUrl = s.running.metricsUrl!;
    const { id } = await s.mintKey('revoker');
    const before = await scrape(metricsUrl);
    expect(before.get('drops_auth_jwks_fetches_total{outcome="fetched"}')).toBeGreaterThanOrEqual(1);
    expect(before.get('drops_auth_jwks_keys')).toBe(s.idp!.jwks.keys.length);
    expect(before.has('process_cpu_user_seconds_total')).toBe(true);
    expect(before.has('nodejs_eventloop_lag_seconds')).toBe(true);

    const token = await s.token('revoker');
    expect((await s.fetch(`/keys/${id}`, { method: 'DELETE', headers: bearer(token) })).status).toBe(204);
    expect((await s.fetch(`/keys/${id}`, { method: 'DELETE', headers: bearer(token) })).status).toBe(404);
    // Labelled by the route table's own path, not as a key id.
    const webhook = await s.fetch('/keys/webhook', { headers: bearer(token) });
    const grew = growth(before, await scrape(metricsUrl));
    expect(grew('drops_auth_revocation_wait_seconds_count{outcome="revoked"}')).toBe(1);
    expect(grew('drops_auth_revocation_wait_seconds_count{outcome="not_found"}')).toBe(1);
    expect(grew('drops_auth_key_store_duration_seconds_count{operation="revoke"}')).toBe(2);
    expect(grew('drops_http_requests_total{method="DELETE",route="/keys/:id",status="204"}')).toBe(1);
    expect(grew(`drops_http_requests_total{method="GET",route="/keys/webhook",status="${webhook.status}"}`)).toBe(1);
  });

  it('labels every /keys route as itself: /keys/webhook is never /keys/:id', async () => {
    const s = server();
    const metricsUrl = s.running.metricsUrl!;
    const { id } = await s.mintKey('labels');
    const token = await s.token('labels');
    const before = await scrape(metricsUrl);
    const asked: [string, string][] = [
      ['PUT', '/keys/webhook'],
      ['GET', '/keys/webhook'],
      ['DELETE', '/keys/webhook'],
      ['GET', '/keys/events'],
      ['POST', `/keys/${id}/roll`],
      ['GET', '/keys'],
      ['DELETE', `/keys/${id}`],
    ];
    const statuses = new Map<string, number>();
    for (const [method, path] of asked) {
      const res = await s.fetch(path, {
        method,
        headers: { ...bearer(token), 'content-type': 'application/json' },
        body: method === 'PUT' ? '{"url":"https://example.com/hook"}' : method === 'POST' ? '{}' : null,
      });
      statuses.set(`${method} ${path}`, res.status);
    }
    const grew = growth(before, await scrape(metricsUrl));
    const labelled = (method: string, route: string, path: string): number =>
      grew(`drops_http_requests_total{method="${method}",route="${route}",status="${statuses.get(`${method} ${path}`)}"}`);
    for (const method of ['PUT', 'GET', 'DELETE']) expect(labelled(method, '/keys/webhook', '/keys/webhook')).toBe(1);
    expect(labelled('GET', '/keys/events', '/keys/events')).toBe(1);
    expect(labelled('POST', '/keys/:id/roll', `/keys/${id}/roll`)).toBe(1);
    expect(labelled('GET', '/keys', '/keys')).toBe(1);
    expect(labelled('DELETE', '/keys/:id', `/keys/${id}`)).toBe(1);
  });

  it('times revocations by value and by GitHub secret scanning too: one per key revoked, none for a secret that is no key', async () => {
    const s = server();
    const metricsUrl = s.running.metricsUrl!;
    const leaked = await s.mintKey('leaky');
    const found = await s.mintKey('leaky');
    const before = await scrape(metricsUrl);

    const revokeByValue = (credentials: string[]): Promise<Response> =>
      s.fetch('/credentials/revoke', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ credentials }),
      });
    expect((await revokeByValue([leaked.apiKey, generateApiKey().secret])).status).toBe(202);
    expect((await revokeByValue([leaked.apiKey])).status).toBe(202);
    const alert = JSON.stringify([
      { token: found.apiKey, type: 'drops_api_key', url: 'https://github.com/o/r/blob/x/.env', source: 'content' },
    ]);
    const scanned = await s.fetch('/secret-scanning/github', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...s.github!.signedHeaders(alert) },
      body: alert,
    });
    expect(scanned.status).toBe(200);
    // Revocations by value are carried out after their 202: wait until none is pending.
    for (let i = 0; i < 400; i++) {
      const { rows } = await s.running.db.query<{ n: number }>('select count(*)::int as n from drops_auth_pending_revocations');
      if (rows[0]?.n === 0) break;
      await new Promise((r) => setTimeout(r, 5));
    }

    const grew = growth(before, await scrape(metricsUrl));
    expect(grew('drops_auth_revocation_wait_seconds_count{outcome="revoked"}')).toBe(2);
    expect(grew('drops_auth_revocation_wait_seconds_count{outcome="not_found"}')).toBe(0);
    expect(grew('drops_auth_key_store_duration_seconds_count{operation="revokeMany"}')).toBe(3);
  });

  it('answers nothing else on the metrics listener', async () => {
    const s = server();
    const other = await fetch(new URL('/healthz', s.running.metricsUrl!));
    expect(other.status).toBe(404);
    expect((await fetch(s.running.metricsUrl!, { method: 'POST' })).status).toBe(404);
  });

  it('on the public port, serves the METRICS_TOKEN bearer and tells anyone else nothing: the 404 of any unknown path', async () => {
    const s = server();
    const unknownPath = await answer(await s.fetch('/no-such-page'));
    for (const headers of [{}, bearer('wrong-token-0123456789abcdef'), bearer(`${TOKEN}x`), { authorization: TOKEN }]) {
      const res = await s.fetch('/metrics', { headers });
      expect(await answer(res)).toEqual(unknownPath);
    }
    const ok = await scrape(`${s.url}/metrics`, { headers: bearer(TOKEN) });
    expect(ok.has('drops_auth_jwks_fetches_total{outcome="fetched"}')).toBe(true);
  });
});

describe('GET /metrics on the public port without METRICS_TOKEN', () => {
  const server = useTestServer({ backend: 'pglite', env: { METRICS_PORT: 'off' } });

  it('is the 404 of any unknown path, whatever the caller sends; and METRICS_PORT=off opens no listener', async () => {
    const s = server();
    expect(s.running.metricsUrl).toBeNull();
    const unknownPath = await answer(await s.fetch('/no-such-page'));
    for (const headers of [{}, bearer('anything-at-all-0123456789'), bearer(await s.token())]) {
      expect(await answer(await s.fetch('/metrics', { headers }))).toEqual(unknownPath);
    }
  });
});

describe('metrics when the key store is down', () => {
  const proxied = useProxiedServer();

  it('count the 503s by dependency and the key store errors', async () => {
    const { s, proxy } = proxied();
    const metricsUrl = s.running.metricsUrl!;
    const unknownKey = bearer(`hp_${'E'.repeat(43)}`);
    let grew: (key: string) => number;
    await proxy.cut();
    try {
      // While its lease lasts the instance answers an unknown key from memory (a 401); once the
      // lease has lapsed the store cannot answer: a 503.
      for (let i = 0; i < 300; i++) {
        if ((await s.fetch('/whoami', { headers: unknownKey })).status === 503) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const before = await scrape(metricsUrl);
      expect((await s.fetch('/whoami', { headers: unknownKey })).status).toBe(503);
      grew = growth(before, await scrape(metricsUrl));
    } finally {
      await proxy.restore();
    }
    expect(grew('drops_auth_requests_total{credential="api_key",outcome="unavailable",reason="key_store"}')).toBe(1);
    expect(grew('drops_auth_key_store_errors_total{operation="findActive"}')).toBe(1);
    expect(grew('drops_http_requests_total{method="GET",route="none",status="503"}')).toBe(1);
  }, 60_000);

  it('count a flood of random keys on PostgreSQL as lookups answered from memory, under the lease', async () => {
    const { s } = proxied();
    const metricsUrl = s.running.metricsUrl!;
    const random = (): Record<string, string> => bearer(generateApiKey().secret);
    // Once the instance holds its lease and has built the membership of active keys, a random key
    // is answered from memory; until then it waits (a store lookup) or is a 503.
    for (let i = 0; i < 200; i++) {
      const before = await scrape(metricsUrl);
      expect([401, 503]).toContain((await s.fetch('/whoami', { headers: random() })).status);
      if (growth(before, await scrape(metricsUrl))('drops_auth_key_lookups_total{from="memory"}') === 1) break;
    }
    const before = await scrape(metricsUrl);
    for (let i = 0; i < 20; i++) expect((await s.fetch('/whoami', { headers: random() })).status).toBe(401);
    const grew = growth(before, await scrape(metricsUrl));
    expect(grew('drops_auth_key_lookups_total{from="memory"}')).toBe(20);
    expect(grew('drops_auth_key_lookups_total{from="store"}')).toBe(0);
    expect(grew('drops_auth_requests_total{credential="api_key",outcome="refused",reason="unknown_key"}')).toBe(20);
  });

  it('time a revocation on PostgreSQL, which waits for the instances holding a cache lease', async () => {
    const { s } = proxied();
    const metricsUrl = s.running.metricsUrl!;
    const { apiKey, id } = await s.mintKey('lease-holder');
    expect((await s.fetch('/whoami', { headers: bearer(apiKey) })).status).toBe(200);
    const before = await scrape(metricsUrl);
    expect((await s.fetch(`/keys/${id}`, { method: 'DELETE', headers: bearer(await s.token('lease-holder')) })).status).toBe(204);
    const after = await scrape(metricsUrl);
    expect(growth(before, after)('drops_auth_revocation_wait_seconds_count{outcome="revoked"}')).toBe(1);
    // How many leases acknowledged depends on the lease's renewal timing; none had to expire.
    expect(after.has('drops_auth_revocation_acknowledgements_total')).toBe(true);
    expect(growth(before, after)('drops_auth_revocation_expired_leases_total')).toBe(0);
  });
});

describe('countRevocationWait', () => {
  it("counts the store's acknowledgements and expired leases", async () => {
    const metrics = createServerMetrics();
    try {
      const before = samples(await metrics.render());
      metrics.countRevocationWait({ acknowledged: 2, expired: 0 });
      metrics.countRevocationWait({ acknowledged: 1, expired: 1 });
      const grew = growth(before, samples(await metrics.render()));
      expect(grew('drops_auth_revocation_acknowledgements_total')).toBe(3);
      expect(grew('drops_auth_revocation_expired_leases_total')).toBe(1);
    } finally {
      metrics.close();
    }
  });
});

describe('watchKeyStore', () => {
  it("reads the key store's lease and its unheard notifications at each scrape", async () => {
    const metrics = createServerMetrics();
    const store = { answeringKeys: true, notificationsUnheard: 0 };
    try {
      metrics.watchKeyStore(store);
      let now = samples(await metrics.render());
      expect(now.get('drops_auth_key_store_lease_held')).toBe(1);
      const before = now;
      store.answeringKeys = false;
      store.notificationsUnheard = 2;
      now = samples(await metrics.render());
      expect(now.get('drops_auth_key_store_lease_held')).toBe(0);
      expect(growth(before, now)('drops_auth_notifications_unheard_total')).toBe(2);
    } finally {
      metrics.close();
    }
  });
});

describe('countWebhookDelivery', () => {
  it('counts delivery attempts by outcome: delivered, retry, dead', async () => {
    const metrics = createServerMetrics();
    try {
      const before = samples(await metrics.render());
      const attempt = { id: 'msg_1', accountId: 'acct', attempt: 1 };
      metrics.countWebhookDelivery({ kind: 'failed', ...attempt, reason: 'status 503', givenUp: false });
      metrics.countWebhookDelivery({ kind: 'failed', ...attempt, reason: 'status 503', givenUp: false });
      metrics.countWebhookDelivery({ kind: 'delivered', ...attempt });
      metrics.countWebhookDelivery({ kind: 'failed', ...attempt, reason: 'timeout', givenUp: true });
      const grew = growth(before, samples(await metrics.render()));
      expect(grew('drops_auth_webhook_deliveries_total{outcome="delivered"}')).toBe(1);
      expect(grew('drops_auth_webhook_deliveries_total{outcome="retry"}')).toBe(2);
      expect(grew('drops_auth_webhook_deliveries_total{outcome="dead"}')).toBe(1);
    } finally {
      metrics.close();
    }
  });
});
