import { describe, expect, it } from 'vitest';
import { BACKENDS, bearer, useTestServer } from '../testing/test-server.js';

describe.each(BACKENDS)('/billing, /whoami and /healthz (%s)', (backend) => {
  const server = useTestServer({ backend });

  it('answers the plan, free by default, and keeps it in the database', async () => {
    const s = server();
    const key = bearer((await s.mintKey('payer')).apiKey);
    const res = await s.fetch('/billing/plan', { headers: key });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ plan: 'free' });
    const { rows } = await s.running.db.query('select plan from billing_accounts where account_id = $1', ['payer']);
    expect(rows).toEqual([{ plan: 'free' }]);
    await s.running.db.query("update billing_accounts set plan = 'pro' where account_id = $1", ['payer']);
    expect(await (await s.fetch('/billing/plan', { headers: bearer(await s.token('payer')) })).json()).toEqual({ plan: 'pro' });
    expect((await s.fetch('/billing/invoices', { headers: key })).status).toBe(404);
    expect((await s.fetch('/billing', { headers: key })).status).toBe(404);
    expect((await s.fetch('/billing/plan', { method: 'POST', headers: key })).status).toBe(405);
  });

  it('tells who is calling, with the key id for a key and never the credential', async () => {
    const s = server();
    const { apiKey, id } = await s.mintKey('who');
    const byKey = await s.fetch('/whoami', { headers: bearer(apiKey) });
    const text = await byKey.text();
    expect(JSON.parse(text)).toEqual({ accountId: 'who', credential: 'api_key', keyId: id });
    expect(text).not.toContain(apiKey);
    const byToken = await s.fetch('/whoami', { headers: bearer(await s.token('who')) });
    expect(await byToken.json()).toEqual({ accountId: 'who', credential: 'id_token' });
  });

  it('is healthy while the database answers', async () => {
    const res = await server().fetch('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});
