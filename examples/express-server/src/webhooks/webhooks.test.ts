// Issue 26 item 5 on the reference server: PUT /keys/webhook, then key events delivered from the
// durable outbox, signed per Standard Webhooks, at least once, across a SIGKILL and two instances.
import { LocalWebhookReceiver, type LocalWebhookReceiverOptions, type ReceivedWebhook } from '@drops/auth/testing';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { startChildServer } from '../testing/child-server.js';
import { useKillableServerBackend } from '../testing/killable-server-backend.js';
import { BACKENDS, bearer, useTestServer, type Backend, type TestServer } from '../testing/test-server.js';
import { useTwoInstances } from '../testing/two-instances.js';
import { until } from '../testing/until.js';

interface Payload {
  type: string;
  timestamp: string;
  data: { keyId: string; source: string };
}

const receivers: LocalWebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(answer?: LocalWebhookReceiverOptions['answer']): Promise<LocalWebhookReceiver> {
  const r = await LocalWebhookReceiver.start(answer === undefined ? {} : { answer });
  receivers.push(r);
  return r;
}

const verified = (secret: string, r: ReceivedWebhook): Payload => new Webhook(secret).verify(r.body, r.headers) as Payload;

async function setWebhook(base: string, idToken: string, url: string): Promise<string> {
  const res = await fetch(`${base}/keys/webhook`, {
    method: 'PUT',
    headers: { ...bearer(idToken), 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { url: string; secret: string };
  expect(body.url).toBe(url);
  return body.secret;
}

describe('webhooks on the reference server', () => {
  const server = useTestServer({
    backend: 'postgres',
    idp: 'dev',
    env: { WEBHOOK_RETRY_SECONDS: '0,0,0', METRICS_TOKEN: 'metrics-token-0123456789abcdef' },
  });

  /** `drops_auth_webhook_deliveries_total` by outcome, scraped until `ready` says so (4 s at most). */
  async function deliveries(metricsUrl: string, ready: (counts: Record<string, number>) => boolean): Promise<Record<string, number>> {
    for (let i = 0; ; i++) {
      const text = await (await fetch(metricsUrl)).text();
      const counts: Record<string, number> = {};
      for (const m of text.matchAll(/^drops_auth_webhook_deliveries_total\{outcome="(\w+)"\} (\d+)$/gm)) counts[m[1]!] = Number(m[2]);
      if (ready(counts) || i === 200) return counts;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('delivers a mint and a revoke after two failures, verifiable with standardwebhooks; no secret in the logs', async () => {
    const s = server();
    const r = await receiver((i) => ({ status: i < 2 ? 500 : 204 }));
    const idToken = await s.token('hooked');
    const secret = await setWebhook(s.url, idToken, r.url);
    const shown = await s.fetch('/keys/webhook', { headers: bearer(idToken) });
    expect(await shown.json()).toEqual({ url: r.url, deliveries: { pending: 0, failed: 0, lastFailure: null } });
    const { apiKey, id } = await s.mintKey('hooked', 'ci');
    expect((await s.fetch(`/keys/${id}`, { method: 'DELETE', headers: bearer(apiKey) })).status).toBe(204);
    await until(() => r.delivered.length === 2, 'two deliveries', 4000);
    expect(r.received.slice(0, 2).map((x) => x.status)).toEqual([500, 500]);
    expect(r.delivered.map((x) => verified(secret, x).type).sort()).toEqual(['key.minted', 'key.revoked']);
    for (const x of r.delivered) expect(verified(secret, x).data.keyId).toBe(id);
    const logs = s.logs.join('');
    expect(logs).toContain('webhook delivery failed');
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain(secret.slice('whsec_'.length));
    expect(logs).not.toContain(apiKey);
    expect(await deliveries(s.running.metricsUrl!, (c) => c['delivered'] === 2)).toEqual({ delivered: 2, retry: 2 });
  });

  it('counts a delivery out of retries as dead, after its retries', async () => {
    const s = server();
    const r = await receiver(() => ({ status: 503 }));
    const idToken = await s.token('hooked-dead');
    const secret = await setWebhook(s.url, idToken, r.url);
    // The server is this describe's: count from what the tests before left.
    const before = await deliveries(s.running.metricsUrl!, () => true);
    await s.mintKey('hooked-dead');
    const after = await deliveries(s.running.metricsUrl!, (c) => (c['dead'] ?? 0) === (before['dead'] ?? 0) + 1);
    expect((after['dead'] ?? 0) - (before['dead'] ?? 0)).toBe(1);
    expect((after['retry'] ?? 0) - (before['retry'] ?? 0)).toBe(3);
    expect(after['delivered']).toBe(before['delivered']);
    expect(r.received).toHaveLength(4);
    // The owner sees it too, not only the metrics.
    const shown = await (await s.fetch('/keys/webhook', { headers: bearer(idToken) })).text();
    expect(JSON.parse(shown)).toEqual({
      url: r.url,
      deliveries: { pending: 0, failed: 1, lastFailure: { at: expect.any(String), reason: 'answered 503' } },
    });
    expect(shown).not.toContain(secret.slice('whsec_'.length));
  });

  it('answers an API key on /keys/webhook with the uniform 401 and a bad url with a JSON 400', async () => {
    const s = server();
    const { apiKey } = await s.mintKey('hooked-401');
    const put = await s.fetch('/keys/webhook', { method: 'PUT', headers: bearer(apiKey), body: '{"url":"https://example.com/"}' });
    expect(put.status).toBe(401);
    const bad = await s.fetch('/keys/webhook', {
      method: 'PUT',
      headers: { ...bearer(await s.token('hooked-401')), 'content-type': 'application/json' },
      body: '{"url":"http://10.0.0.1/"}',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/https/);
  });
});

/** The reason of the endpoint's newest failed attempt, as GET /keys/webhook shows the owner, once there is one (2 s at most). */
async function lastFailureReason(s: TestServer, idToken: string): Promise<string> {
  for (let i = 0; ; i++) {
    const shown = (await (await s.fetch('/keys/webhook', { headers: bearer(idToken) })).json()) as {
      deliveries: { lastFailure: { reason: string } | null };
    };
    if (shown.deliveries.lastFailure !== null) return shown.deliveries.lastFailure.reason;
    if (i === 200) throw new Error('no failed attempt shown');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(BACKENDS)('webhooks fair between accounts (%s)', (backend: Backend) => {
  const server = useTestServer({ backend, idp: 'dev' });

  it("another account's delivery arrives within 5 s beside 60 deliveries stalled by an endpoint that never answers", async () => {
    const s = server();
    const stalled = await receiver(() => null);
    const attacker = await s.token('stalling');
    await setWebhook(s.url, attacker, stalled.url);
    for (let i = 0; i < 60; i++) {
      const res = await s.fetch('/keys', { method: 'POST', headers: bearer(attacker), body: '{}' });
      expect(res.status).toBe(201);
    }
    await until(() => stalled.received.length >= 1, 'a stalled attempt', 1000);
    const r = await receiver();
    const secret = await setWebhook(s.url, await s.token('served'), r.url);
    const mintedAt = Date.now();
    const { id } = await s.mintKey('served');
    await until(() => r.delivered.length === 1, "the other account's delivery", 1000);
    expect(Date.now() - mintedAt).toBeLessThan(5000);
    expect(verified(secret, r.delivered[0] as ReceivedWebhook).data.keyId).toBe(id);
    expect(stalled.received).toHaveLength(1); // one attempt at a time per endpoint
  }, 30_000);
});

describe('webhook addresses outside development (PostgreSQL, an external identity provider)', () => {
  const server = useTestServer({ backend: 'postgres' });

  it('answers 400 to PUT /keys/webhook for a non-public address literal in any spelling, and changes nothing', async () => {
    const s = server();
    const idToken = await s.token('literal');
    const put = (url: string) =>
      s.fetch('/keys/webhook', {
        method: 'PUT',
        headers: { ...bearer(idToken), 'content-type': 'application/json' },
        body: JSON.stringify({ url }),
      });
    const spellings = [
      'https://10.0.0.1/hooks',
      'https://0x7f.1/hooks', // 127.0.0.1
      'https://2852039166/latest/meta-data', // 169.254.169.254
      'https://[::127.0.0.1]/hooks', // IPv4-compatible
      'https://[::10.0.0.1]/hooks',
      'https://[::169.254.169.254]/latest/meta-data',
      'https://[::ffff:127.0.0.1]/hooks', // IPv4-mapped
      'https://[::ffff:a9fe:a9fe]/latest/meta-data',
      'https://[64:ff9b::10.0.0.1]/hooks', // NAT64
      'https://[64:ff9b:1::c0a8:1]/hooks', // local-use NAT64, 192.168.0.1
      'https://[2002:a00:1::1]/hooks', // 6to4 of 10.0.0.1
      'https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/hooks', // Teredo
      'https://[fd00:ec2::254]/latest/meta-data',
      'https://[fe80::1]/hooks',
      'https://[::]/hooks',
      'https://100.64.0.1/hooks',
    ];
    for (const url of spellings) {
      const res = await put(url);
      expect(res.status, url).toBe(400);
      expect(((await res.json()) as { error: string }).error, url).toMatch(/public host/);
    }
    expect(await (await s.fetch('/keys/webhook', { headers: bearer(idToken) })).json()).toEqual({ url: null });
    expect((await put('https://93.184.215.14/hooks')).status).toBe(200);
    expect((await put('https://[2606:4700:4700::1111]/hooks')).status).toBe(200);
  });

  it('shows the owner one reason for a name that does not exist and one that resolves to an inner address', async () => {
    const s = server();
    const reasons: string[] = [];
    for (const [sub, url] of [
      ['dns-missing', 'https://no-such-host.invalid/hooks'],
      ['dns-inner', 'https://localhost:9/hooks'],
    ] as const) {
      const idToken = await s.token(sub);
      await setWebhook(s.url, idToken, url);
      await s.mintKey(sub);
      reasons.push(await lastFailureReason(s, idToken));
    }
    expect(reasons).toEqual(['no public address', 'no public address']);
  });
});

describe('webhooks on two instances of one PostgreSQL', () => {
  const instances = useTwoInstances({ DEV_IDENTITY_PROVIDER: 'on', WEBHOOK_RETRY_SECONDS: '0' });

  it('deliver each event once (every webhook-id once at the receiver)', async () => {
    const { a, b, idp } = instances();
    const r = await receiver();
    const secret = await setWebhook(a.url, idp.mintIdToken({ sub: 'twice' }), r.url);
    for (let i = 0; i < 10; i++) await (i % 2 === 0 ? a : b).mintKey('twice');
    await until(() => r.received.length >= 10, 'ten deliveries', 4000);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // two more turns of each sender: nothing sent twice
    const ids = r.received.map((x) => x.headers['webhook-id']);
    expect(ids).toHaveLength(10);
    expect(new Set(ids).size).toBe(10);
    for (const x of r.received) expect(verified(secret, x).type).toBe('key.minted');
  });
});

describe.each(BACKENDS)('a webhook whose endpoint was down when the server was SIGKILLed (%s)', (backend: Backend) => {
  const data = useKillableServerBackend(backend, 'drops-webhook-');

  it('arrives after the restart', async () => {
    let up = false;
    const r = await receiver(() => ({ status: up ? 204 : 503 }));
    const env = { ...data.env, DEV_IDENTITY_PROVIDER: 'on', WEBHOOK_RETRY_SECONDS: '1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1' };
    const first = await startChildServer(env);
    const idToken = data.idp.mintIdToken({ sub: 'killed' });
    const secret = await setWebhook(first.url, idToken, r.url);
    const res = await fetch(`${first.url}/keys`, { method: 'POST', headers: bearer(idToken), body: '{}' });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    await until(() => r.received.length >= 1, 'a failed attempt', 4000);
    await first.kill();
    expect(await first.exited).toBe('SIGKILL');
    expect(r.delivered).toHaveLength(0);

    up = true;
    const second = await startChildServer(env);
    await until(() => r.delivered.length >= 1, 'the delivery after the restart', 12_000);
    const payload = verified(secret, r.delivered[0] as ReceivedWebhook);
    expect([payload.type, payload.data.keyId]).toEqual(['key.minted', id]);
    await second.stop();
  }, 120_000);
});
