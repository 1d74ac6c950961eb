import { snapshotOf, UNIFORM_401 } from '@drops/auth/testing';
import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../testing/test-server.js';

const DAY = 86_400_000;

describe('key expiry on the reference server', () => {
  const server = useTestServer({ backend: 'pglite', env: { MAX_KEY_LIFETIME_DAYS: '30' } });

  async function mint(expiresAt: Date, sub = 'expiry'): Promise<{ apiKey: string; id: string; expiresAt: string }> {
    const s = server();
    const res = await s.fetch('/keys', {
      method: 'POST',
      headers: { ...bearer(s.idp!.mintIdToken({ sub })), 'content-type': 'application/json' },
      body: JSON.stringify({ expiresAt: expiresAt.toISOString() }),
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { apiKey: string; id: string; expiresAt: string };
  }

  it('takes a key minted 3 s from expiry, then answers it the uniform 401, the same bytes as an unknown key', async () => {
    const s = server();
    const key = await mint(new Date(Date.now() + 3000));
    const first = await s.fetch('/keys', { headers: bearer(key.apiKey) });
    expect(first.status).toBe(200);
    // Polled: the key is refused once the clock passes its expiry (a bounded number of checks).
    let refused = null;
    for (let i = 0; i < 200 && refused === null; i++) {
      const res = await s.fetch('/keys', { headers: bearer(key.apiKey) });
      if (res.status === 401) refused = await snapshotOf(res);
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(refused).toEqual(UNIFORM_401);
    expect(await snapshotOf(await s.fetch('/keys', { headers: bearer(`hp_${'Q'.repeat(43)}`) }))).toEqual(refused);
  });

  it('warns with Drops-Key-Expiration on answers to a key expiring in 3 days, never to a key expiring in 20', async () => {
    const s = server();
    const soon = await mint(new Date(Date.now() + 3 * DAY));
    const later = await mint(new Date(Date.now() + 20 * DAY));
    const warned = await s.fetch('/keys', { headers: bearer(soon.apiKey) });
    expect(warned.status).toBe(200);
    expect(warned.headers.get('drops-key-expiration')).toBe(soon.expiresAt);
    const quiet = await s.fetch('/keys', { headers: bearer(later.apiKey) });
    expect(quiet.status).toBe(200);
    expect(quiet.headers.get('drops-key-expiration')).toBeNull();
  });

  it('bounds a mint without expiresAt, and a roll of a key due in an hour, to MAX_KEY_LIFETIME_DAYS', async () => {
    const s = server();
    const token = s.idp!.mintIdToken({ sub: 'expiry-bound' });
    const post = (path: string, body: unknown): Promise<Response> =>
      s.fetch(path, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const withinThirtyDays = (at: string | null): boolean => at !== null && Date.parse(at) <= Date.now() + 30 * DAY;
    const plain = await post('/keys', {});
    expect(plain.status).toBe(201);
    expect(withinThirtyDays(((await plain.json()) as { expiresAt: string | null }).expiresAt)).toBe(true);
    const dueSoon = await mint(new Date(Date.now() + 3_600_000), 'expiry-bound');
    const rolled = await post(`/keys/${dueSoon.id}/roll`, {});
    expect(rolled.status).toBe(201);
    expect(withinThirtyDays(((await rolled.json()) as { expiresAt: string | null }).expiresAt)).toBe(true);
  });

  it('refuses an expiresAt beyond MAX_KEY_LIFETIME_DAYS with a JSON 400, and mints nothing', async () => {
    const s = server();
    const token = s.idp!.mintIdToken({ sub: 'expiry-far' });
    const res = await s.fetch('/keys', {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({ expiresAt: new Date(Date.now() + 31 * DAY).toISOString() }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/expiresAt must be at most/);
    const list = (await (await s.fetch('/keys', { headers: bearer(token) })).json()) as { keys: unknown[] };
    expect(list.keys).toEqual([]);
  });
});
