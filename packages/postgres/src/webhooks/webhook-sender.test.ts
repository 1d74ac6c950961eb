// Issue 26 item 5: key events delivered from the outbox, signed per Standard Webhooks, at least once.
import { createKeyManager, createWebhookSettings, type KeyManager, type Principal, type WebhookEndpoint } from '@drops/auth';
import { LocalWebhookReceiver, type LocalWebhookReceiverOptions, type ReceivedWebhook } from '@drops/auth/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fromPgPool } from '../from-pg-pool.js';
import { KEYS_TABLE, migrateKeyStore, WEBHOOK_OUTBOX_TABLE, WEBHOOKS_TABLE } from '../key-store-migrations.js';
import { PostgresKeyStore } from '../postgres-key-store.js';
import type { Queryable } from '../queryable.js';
import { eventually } from '../test-support/eventually.js';
import { freshDatabase, type FreshDatabase } from '../test-support/fresh-database.js';
import { writeExpiryNotices } from './expiry-notices.js';
import { PostgresWebhookStore } from './postgres-webhook-store.js';
import { startWebhookSender, type WebhookDeliveryReport, type WebhookSender, type WebhookSenderOptions } from './webhook-sender.js';

let database: FreshDatabase;
let db: Queryable;
let store: PostgresKeyStore;
let keys: KeyManager;
const receivers: LocalWebhookReceiver[] = [];
const senders: WebhookSender[] = [];

const owner = (sub: string): Principal => ({
  accountId: sub,
  credential: 'id_token',
  claims: { sub, iss: 'https://issuer.test', aud: 'webhooks', iat: 1, exp: 2 },
});

beforeAll(async () => {
  database = await freshDatabase('webhook_sender');
  db = fromPgPool(database.pool());
  await migrateKeyStore(db);
  store = new PostgresKeyStore({ db: fromPgPool(database.pool()), closeDatabase: true });
  keys = createKeyManager({
    keyStore: store,
    mintRateLimit: false,
    webhooks: createWebhookSettings({ store: new PostgresWebhookStore({ db }), allowLoopbackHttp: true }),
  });
});

afterEach(async () => {
  await Promise.all(senders.splice(0).map((s) => s.stop()));
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

afterAll(async () => {
  await store?.close();
  await db?.close();
  await database?.drop();
});

async function receiver(answer?: LocalWebhookReceiverOptions['answer']): Promise<LocalWebhookReceiver> {
  const r = await LocalWebhookReceiver.start(answer === undefined ? {} : { answer });
  receivers.push(r);
  return r;
}

function sender(retrySeconds: number[] = [0, 0, 0], options: Partial<WebhookSenderOptions> = {}): WebhookSender {
  const s = startWebhookSender({ db, retrySeconds, allowLoopback: true, intervalMs: 20, ...options });
  senders.push(s);
  return s;
}

/** The payload of a delivery, verified with the standardwebhooks package (throws when it does not verify). */
function verified(secret: string, r: ReceivedWebhook): { type: string; timestamp: string; data: Record<string, unknown> } {
  return new Webhook(secret).verify(r.body, r.headers) as { type: string; timestamp: string; data: Record<string, unknown> };
}

/** The account's deliveries still to be sent. */
async function outboxOf(account: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from ${WEBHOOK_OUTBOX_TABLE} where account_id = $1 and failed_at is null`,
    [account],
  );
  return rows[0]?.n ?? -1;
}

/** The account's dead deliveries (out of retries), by outbox id. */
async function deadOf(account: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `select id::text from ${WEBHOOK_OUTBOX_TABLE} where account_id = $1 and failed_at is not null order by id`,
    [account],
  );
  return rows.map((r) => r.id);
}

/** The account's endpoint as GET /keys/webhook shows it to its owner. */
async function shown(account: string): Promise<WebhookEndpoint> {
  const json = await keys.webhook.get(owner(account));
  if (json.url === null) throw new Error(`${account} has no webhook`);
  return json;
}

describe('webhook delivery from the outbox', () => {
  it('delivers a mint and a revoke, signed and verifiable, after the endpoint failed twice; never a secret in the payload', async () => {
    const r = await receiver((i) => ({ status: i < 2 ? 500 : 204 }));
    const { secret } = await keys.webhook.set(owner('acct_a'), { url: r.url });
    const minted = await keys.mint(owner('acct_a'), { name: 'ci' });
    await keys.revoke(owner('acct_a'), minted.id);
    sender();
    await eventually(() => (r.delivered.length === 2 ? true : undefined));
    expect(r.received.slice(0, 2).map((x) => x.status)).toEqual([500, 500]);
    const payloads = r.delivered.map((x) => verified(secret, x));
    expect(payloads.map((p) => p.type).sort()).toEqual(['key.minted', 'key.revoked']);
    for (const p of payloads) expect(p.data).toMatchObject({ keyId: minted.id, prefix: minted.prefix, name: 'ci', source: 'api' });
    for (const x of r.received) {
      expect(x.body).not.toContain(minted.apiKey);
      expect(x.body).not.toContain(secret);
      expect(x.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(x.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]{22}$/);
    }
    // A retry is the same message (same id, same body), signed afresh.
    const first = r.received[0] as ReceivedWebhook;
    const sameMessage = r.received.filter((x) => x.headers['webhook-id'] === first.headers['webhook-id']);
    expect(sameMessage.length).toBeGreaterThan(1);
    for (const x of sameMessage) expect(x.body).toBe(first.body);
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(first.body, first.headers)).toThrow();
    // The row goes once the sender has read the 2xx, a moment after the receiver answered it.
    await eventually(async () => ((await outboxOf('acct_a')) === 0 ? true : undefined));
  });

  it('delivers revocations in plain SQL (the operator function, a bare UPDATE) and by secret scanning (leaked), each once', async () => {
    const r = await receiver();
    const { secret } = await keys.webhook.set(owner('acct_sql'), { url: r.url });
    const one = await keys.mint(owner('acct_sql'));
    const two = await keys.mint(owner('acct_sql'));
    const three = await keys.mint(owner('acct_sql'));
    await db.query('select * from drops_auth_revoke_key($1)', [one.id]);
    await keys.revokeBySecret([two.apiKey], { source: 'github_secret_scanning', url: 'https://github.com/o/r/blob/x' });
    await db.query(`update ${KEYS_TABLE} set revoked_at = now() where id = $1`, [three.id]);
    sender();
    await eventually(() => (r.delivered.length === 6 ? true : undefined));
    const revoked = r.delivered.map((x) => verified(secret, x)).filter((p) => p.type === 'key.revoked');
    expect(revoked.map((p) => [p.data['keyId'], p.data['source']]).sort()).toEqual(
      [
        [one.id, 'operator'],
        [two.id, 'github_secret_scanning'],
        [three.id, 'operator'],
      ].sort(),
    );
    expect(revoked.find((p) => p.data['keyId'] === two.id)?.data['url']).toBe('https://github.com/o/r/blob/x');
  });

  it('queues nothing for an account without a webhook, and drops what was pending when the webhook is removed', async () => {
    await keys.mint(owner('acct_none'));
    expect(await outboxOf('acct_none')).toBe(0);
    await keys.webhook.set(owner('acct_gone'), { url: 'http://127.0.0.1:9/unused' });
    await keys.mint(owner('acct_gone'));
    expect(await outboxOf('acct_gone')).toBe(1);
    await keys.webhook.remove(owner('acct_gone'));
    expect(await outboxOf('acct_gone')).toBe(0);
  });

  it('keeps a delivery dead after the last retry, never sends it again, and prunes it after 30 days', async () => {
    const r = await receiver(() => ({ status: 503 }));
    await keys.webhook.set(owner('acct_down'), { url: r.url });
    await keys.mint(owner('acct_down'));
    await keys.mint(owner('acct_down'));
    const reports: WebhookDeliveryReport[] = [];
    // Every attempt made: the circuit is another test's.
    const s = sender([0, 0], { openCircuitAfter: 10, onDelivery: (x) => reports.push(x) });
    await eventually(async () => ((await deadOf('acct_down')).length === 2 ? true : undefined));
    expect(await outboxOf('acct_down')).toBe(0);
    expect(r.received).toHaveLength(6);
    expect(reports.filter((x) => x.kind === 'failed' && x.givenUp)).toHaveLength(2);
    await s.runOnce();
    expect(r.received).toHaveLength(6);

    // A sender prunes dead rows at its first turn (then hourly): only those dead for 30 days.
    const [old, recent] = (await deadOf('acct_down')) as [string, string];
    await db.query(`update ${WEBHOOK_OUTBOX_TABLE} set failed_at = now() - interval '31 days' where id = $1`, [old]);
    await db.query(`update ${WEBHOOK_OUTBOX_TABLE} set failed_at = now() - interval '29 days' where id = $1`, [recent]);
    await sender().runOnce();
    expect(await deadOf('acct_down')).toEqual([recent]);
    expect(r.received).toHaveLength(6);
  });

  it("shows the owner a delivery that ran out of retries (failed, last failure's status) and one waiting for a retry (pending), never the secret", async () => {
    const r = await receiver(() => ({ status: 500 }));
    const webhooks = new PostgresWebhookStore({ db });
    const { secret } = await keys.webhook.set(owner('acct_status'), { url: r.url });
    expect(await webhooks.endpointOf('acct_status')).toEqual({ url: r.url, deliveries: { pending: 0, failed: 0, lastFailure: null } });
    await keys.mint(owner('acct_status'));
    expect((await shown('acct_status')).deliveries).toEqual({ pending: 1, failed: 0, lastFailure: null });
    const before = Date.now();
    sender([0, 0]);
    await eventually(async () => ((await deadOf('acct_status')).length === 1 ? true : undefined));
    await Promise.all(senders.splice(0).map((s) => s.stop()));
    const dead = await shown('acct_status');
    expect(dead).toEqual({
      url: r.url,
      deliveries: { pending: 0, failed: 1, lastFailure: { at: expect.any(String), reason: 'answered 500' } },
    });
    const at = Date.parse(dead.deliveries.lastFailure?.at ?? '');
    expect(dead.deliveries.lastFailure?.at).toBe(new Date(at).toISOString());
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1000);

    // A second event fails once and waits for its retry (an hour away): pending, the newest failure shown.
    await keys.mint(owner('acct_status'));
    const retrying = startWebhookSender({ db, retrySeconds: [3600], allowLoopback: true, intervalMs: 60_000 });
    senders.push(retrying);
    await retrying.runOnce();
    const waiting = await shown('acct_status');
    expect(waiting.deliveries).toMatchObject({ pending: 1, failed: 1, lastFailure: { reason: 'answered 500' } });
    expect(Date.parse(waiting.deliveries.lastFailure?.at ?? '')).toBeGreaterThanOrEqual(at);
    expect(JSON.stringify(waiting)).not.toContain(secret);
    expect(JSON.stringify(dead)).not.toContain(secret);
    const { rows } = await db.query<{ last_error: string | null }>(`select last_error from ${WEBHOOK_OUTBOX_TABLE} where account_id = $1`, [
      'acct_status',
    ]);
    expect(rows.map((x) => x.last_error)).toEqual(['answered 500', 'answered 500']);
  });

  it('follows no redirect: a 302 is a failed attempt and its target is never asked', async () => {
    const target = await receiver();
    const r = await receiver(() => ({ status: 302, headers: { location: target.url } }));
    await keys.webhook.set(owner('acct_redirect'), { url: r.url });
    await keys.mint(owner('acct_redirect'));
    sender([0]);
    await eventually(async () => ((await outboxOf('acct_redirect')) === 0 ? true : undefined));
    expect(r.received.map((x) => x.status)).toEqual([302, 302]);
    expect(target.received).toHaveLength(0);
  });

  it('sends each event once with two senders on one database', async () => {
    const r = await receiver();
    const { secret } = await keys.webhook.set(owner('acct_two'), { url: r.url });
    for (let i = 0; i < 20; i++) await keys.mint(owner('acct_two'));
    sender();
    sender();
    // Twenty deliveries, one in flight at a time, between two senders: past the default 10 s once
    // on a saturated two-core machine (a CI rehearsal); the claim is "once each", not the time.
    await eventually(async () => ((await outboxOf('acct_two')) === 0 ? true : undefined), 30_000);
    const ids = r.received.map((x) => x.headers['webhook-id']);
    expect(r.received).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
    for (const x of r.received) expect(verified(secret, x).type).toBe('key.minted');
  }, 40_000);

  it("sends a roll's two events named as GET /keys/events names them (rolledTo, replaces), no column name leaking", async () => {
    const r = await receiver();
    const { secret } = await keys.webhook.set(owner('acct_roll'), { url: r.url });
    const old = await keys.mint(owner('acct_roll'), { name: 'ci' });
    const rolled = await keys.roll(owner('acct_roll'), old.id, { graceSeconds: 60 });
    sender();
    await eventually(() => (r.delivered.length === 3 ? true : undefined));
    const { events } = await keys.events(owner('acct_roll'));
    const atOf = (type: string, keyId: string): string | undefined => events.find((e) => e.type === type && e.keyId === keyId)?.at;
    const payloads = r.delivered.map((x) => verified(secret, x));
    const common = { prefix: old.prefix, name: 'ci', source: 'api', actor: 'acct_roll', url: null };
    expect(payloads.find((p) => p.type === 'key.rolled')?.data).toEqual({
      ...common,
      keyId: old.id,
      at: atOf('rolled', old.id),
      rolledTo: rolled.id,
    });
    expect(payloads.find((p) => p.type === 'key.minted' && p.data['keyId'] === rolled.id)?.data).toEqual({
      ...common,
      prefix: rolled.prefix,
      keyId: rolled.id,
      at: atOf('minted', rolled.id),
      replaces: old.id,
    });
    expect(events.find((e) => e.type === 'rolled')).toMatchObject({ rolledTo: rolled.id });
    expect(events.find((e) => e.type === 'minted' && e.keyId === rolled.id)).toMatchObject({ replaces: old.id });
  });

  it('sends sessions.revoked when the account signs out everywhere, with the actor and the client address', async () => {
    const r = await receiver();
    const { secret } = await keys.webhook.set(owner('acct_sign_out'), { url: r.url });
    const { tokensValidAfter } = await keys.signOutEverywhere(owner('acct_sign_out'), { ip: '203.0.113.7', userAgent: 'curl/8.5.0' });
    sender();
    await eventually(() => (r.delivered.length === 1 ? true : undefined));
    const payload = verified(secret, r.delivered[0]!);
    expect(payload.type).toBe('sessions.revoked');
    expect(payload.data).toEqual({ tokensValidAfter, source: 'api', actor: 'acct_sign_out', ip: '203.0.113.7' });
  });

  it('writes key.expiring once per key and lead time, and the expired event of a key whose expiry passed', async () => {
    const r = await receiver();
    const { secret } = await keys.webhook.set(owner('acct_exp'), { url: r.url });
    const soon = await keys.mint(owner('acct_exp'), { expiresAt: new Date(Date.now() + 3 * 86_400_000).toISOString() });
    const sooner = await keys.mint(owner('acct_exp'), { expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    await keys.mint(owner('acct_exp'), { expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString() });
    const first = await writeExpiryNotices(db);
    expect(first.expiring).toBeGreaterThanOrEqual(2);
    expect((await writeExpiryNotices(db)).expiring).toBe(0);
    await db.query(`update ${KEYS_TABLE} set expires_at = now() - interval '1 minute' where id = $1`, [sooner.id]);
    expect((await writeExpiryNotices(db)).expired).toBeGreaterThanOrEqual(1);
    expect((await writeExpiryNotices(db)).expired).toBe(0);
    sender();
    await eventually(() => (r.delivered.filter((x) => !verified(secret, x).type.endsWith('minted')).length === 3 ? true : undefined));
    const notices = r.delivered.map((x) => verified(secret, x)).filter((p) => p.type !== 'key.minted');
    expect(notices.map((p) => [p.type, p.data['keyId'], p.data['days']]).sort()).toEqual(
      [
        ['key.expiring', soon.id, 7],
        ['key.expiring', sooner.id, 1],
        ['key.expired', sooner.id, undefined],
      ].sort(),
    );
  });

  it('is fair between accounts: a stalled endpoint has one attempt in flight, on any sender, and another account is served at once', async () => {
    const stalled = await receiver(() => null); // never answers
    await keys.webhook.set(owner('acct_stall'), { url: stalled.url });
    for (let i = 0; i < 60; i++) await keys.mint(owner('acct_stall'));
    const r = await receiver();
    const { secret } = await keys.webhook.set(owner('acct_served'), { url: r.url });
    await keys.mint(owner('acct_served'));
    const started = Date.now();
    sender([60]);
    sender([60]);
    await eventually(() => (r.delivered.length === 1 ? true : undefined), 4000);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(verified(secret, r.delivered[0] as ReceivedWebhook).type).toBe('key.minted');
    await new Promise((resolve) => setTimeout(resolve, 100)); // a few more turns of both senders
    expect(stalled.received).toHaveLength(1);
    await keys.webhook.remove(owner('acct_stall'));
    await stalled.close(); // cuts the attempt in flight
  });

  it("opens an endpoint's circuit after failures in a row: deliveries then fail without a connection, and one attempt closes it", async () => {
    let up = false;
    const r = await receiver(() => ({ status: up ? 204 : 500 }));
    await keys.webhook.set(owner('acct_circuit'), { url: r.url });
    for (let i = 0; i < 4; i++) await keys.mint(owner('acct_circuit'));
    const reports: WebhookDeliveryReport[] = [];
    sender([0, 0], { openCircuitAfter: 2, onDelivery: (x) => reports.push(x) });
    // Two attempts fail; the circuit opens (30 s): every delivery then runs out of its retries, unsent.
    await eventually(async () => ((await deadOf('acct_circuit')).length === 4 ? true : undefined));
    expect(r.received).toHaveLength(2);
    const unsent = reports.filter(
      (x) => x.accountId === 'acct_circuit' && x.kind === 'failed' && x.reason === 'not sent: the endpoint kept failing',
    );
    expect(unsent).toHaveLength(4 * 3 - 2);
    // The owner sees why the endpoint failed, not that deliveries were skipped.
    expect((await shown('acct_circuit')).deliveries).toMatchObject({ pending: 0, failed: 4, lastFailure: { reason: 'answered 500' } });
    const circuit = async () =>
      (
        await db.query<{ failures: number; open: boolean }>(
          `select failures, paused_until > now() as open from ${WEBHOOKS_TABLE} where account_id = $1`,
          ['acct_circuit'],
        )
      ).rows[0];
    expect(await circuit()).toEqual({ failures: 2, open: true });

    // Once the circuit's time is up, one attempt is made; it succeeds and closes the circuit.
    up = true;
    await keys.mint(owner('acct_circuit'));
    await db.query(`update ${WEBHOOKS_TABLE} set paused_until = now() - interval '1 second' where account_id = $1`, ['acct_circuit']);
    await eventually(() => (r.delivered.length === 1 ? true : undefined));
    await eventually(async () => ((await circuit())?.failures === 0 ? true : undefined));
    expect(await circuit()).toEqual({ failures: 0, open: null });
  });
});
