import { describe, expect, it } from 'vitest';
import { keyStoreMigrations } from '@drops/auth-postgres';
import { generateApiKey } from '@drops/auth';
import pg from 'pg';
import { bearer } from './testing/test-server.js';
import { useTwoInstances } from './testing/two-instances.js';
import { changeInPlainSql } from './testing/until-acknowledged.js';

/**
 * Reads of the key table (index and sequential scans, every backend's) of the database at `url`,
 * as PostgreSQL counts them server-side, once flushed.
 * The lease renewals and other background work touch other tables, so this isolates key lookups.
 */
async function keyTableReads(url: string): Promise<number> {
  // A backend reports its counts when it goes idle, at most once a second, or else within
  // PostgreSQL's idle flush interval (10 s): after 11 s every earlier statement is counted.
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      "select (coalesce(idx_scan, 0) + coalesce(seq_scan, 0))::text as n from pg_stat_user_tables where relname = 'drops_auth_keys'",
    );
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}

describe('two instances on one PostgreSQL database', () => {
  const instances = useTwoInstances();

  it('accepts on B a key minted on A, and refuses it on B the very next request after A revokes it', async () => {
    const { a, b, idp } = instances();
    const { apiKey, id } = await a.mintKey('shared-account');
    const onB = await b.fetch('/whoami', { headers: bearer(apiKey) });
    expect(onB.status).toBe(200);
    expect(await onB.json()).toEqual({ accountId: 'shared-account', credential: 'api_key', keyId: id });
    expect(((await (await b.fetch('/keys', { headers: bearer(apiKey) })).json()) as { keys: unknown[] }).keys).toHaveLength(1);

    const revoked = await a.fetch(`/keys/${id}`, { method: 'DELETE', headers: bearer(idp.mintIdToken({ sub: 'shared-account' })) });
    expect(revoked.status).toBe(204);
    expect((await b.fetch('/whoami', { headers: bearer(apiKey) })).status).toBe(401);
    expect((await a.fetch('/whoami', { headers: bearer(apiKey) })).status).toBe(401);
  });

  it('revokes on B a key minted on A, and keeps it revoked on both', async () => {
    const { a, b, idp } = instances();
    const { apiKey, id } = await a.mintKey('other-account');
    expect((await b.fetch(`/keys/${id}`, { method: 'DELETE', headers: bearer(apiKey) })).status).toBe(204);
    expect((await a.fetch('/drops', { headers: bearer(apiKey) })).status).toBe(401);
    expect((await a.fetch(`/keys/${id}`, { method: 'DELETE', headers: bearer(idp.mintIdToken({ sub: 'other-account' })) })).status).toBe(
      404,
    );
  });

  it('rolls on A: the new key works on B at once, the old one on B until the grace ends, then the uniform 401', async () => {
    const { a, b, idp } = instances();
    const old = await a.mintKey('rolling-account');
    expect((await b.fetch('/whoami', { headers: bearer(old.apiKey) })).status).toBe(200); // B holds it in its cache
    const rolled = await a.fetch(`/keys/${old.id}/roll`, {
      method: 'POST',
      headers: bearer(idp.mintIdToken({ sub: 'rolling-account' })),
      body: '{"graceSeconds":2}',
    });
    expect(rolled.status).toBe(201);
    const fresh = (await rolled.json()) as { apiKey: string; createdAt: string };
    expect((await b.fetch('/whoami', { headers: bearer(fresh.apiKey) })).status).toBe(200);
    // During the grace the old key still works on B (its shortened expiry announced, not a revocation), with the warning.
    const during = await b.fetch('/whoami', { headers: bearer(old.apiKey) });
    expect(during.status).toBe(200);
    expect(during.headers.get('drops-key-expiration')).toMatch(/^\d{4}-\d\d-\d\dT/);
    const graceEnds = Date.parse(fresh.createdAt) + 2000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, graceEnds - Date.now()) + 500));
    expect((await b.fetch('/whoami', { headers: bearer(old.apiKey) })).status).toBe(401);
    expect((await a.fetch('/whoami', { headers: bearer(old.apiKey) })).status).toBe(401);
    expect((await b.fetch('/whoami', { headers: bearer(fresh.apiKey) })).status).toBe(200);
  });

  it('revokes every key of the account on A with DELETE /keys: all the uniform 401 on B at once', async () => {
    const { a, b, idp } = instances();
    const keys = [await a.mintKey('leaving-account'), await a.mintKey('leaving-account'), await a.mintKey('leaving-account')];
    for (const k of keys) expect((await b.fetch('/whoami', { headers: bearer(k.apiKey) })).status).toBe(200);
    const all = await a.fetch('/keys', { method: 'DELETE', headers: bearer(idp.mintIdToken({ sub: 'leaving-account' })) });
    expect([all.status, await all.json()]).toEqual([200, { revoked: 3 }]);
    for (const k of keys) expect((await b.fetch('/whoami', { headers: bearer(k.apiKey) })).status).toBe(401);
  });

  it('follows an expiry changed in plain SQL on both instances, ended as well as given back', async () => {
    const { a, b } = instances();
    const { apiKey, id } = await a.mintKey('extended-account');
    const status = async () => [
      (await a.fetch('/whoami', { headers: bearer(apiKey) })).status,
      (await b.fetch('/whoami', { headers: bearer(apiKey) })).status,
    ];
    expect(await status()).toEqual([200, 200]); // both hold it in memory
    const setExpiry = (expiresAt: string) =>
      changeInPlainSql(a.running.db, `update drops_auth_keys set expires_at = ${expiresAt} where id = $1`, [id]);
    await setExpiry("now() - interval '1 minute'");
    expect(await status()).toEqual([401, 401]);
    await setExpiry("now() + interval '1 hour'");
    expect(await status()).toEqual([200, 200]);
  });

  it('shares drops, names and vanity names between instances', async () => {
    const { a, b, idp } = instances();
    const key = bearer((await a.mintKey('deployer')).apiKey);
    expect((await a.fetch('/deploy?name=shared-site', { method: 'POST', headers: key, body: 'from A' })).status).toBe(201);
    expect(await (await b.fetch('/d/shared-site')).text()).toBe('from A');
    const listed = (await (await b.fetch('/drops', { headers: key })).json()) as { drops: Array<{ slug: string }> };
    expect(listed.drops.map((d) => d.slug)).toEqual(['shared-site']);
    expect((await b.fetch('/deploy?name=shared-site', { method: 'POST', headers: key, body: 'again' })).status).toBe(409);
    expect((await b.fetch('/deploy/shared-site', { method: 'POST', headers: key, body: ' and B' })).status).toBe(200);
    expect(await (await a.fetch('/d/shared-site')).text()).toBe('from A and B');

    expect((await a.fetch('/vanity/shared', { method: 'PUT', headers: key, body: '{"slug":"shared-site"}' })).status).toBe(201);
    const other = bearer(idp.mintIdToken({ sub: 'someone' }));
    await b.fetch('/deploy?name=someones', { method: 'POST', headers: other, body: 's' });
    expect((await b.fetch('/vanity/shared', { method: 'PUT', headers: other, body: '{"slug":"someones"}' })).status).toBe(409);
  });

  it('50 keys minted on A each work on B at once, though B had just answered random keys (docs/revocation.md)', async () => {
    const { a, b } = instances();
    for (let i = 0; i < 50; i++) {
      expect((await b.fetch('/whoami', { headers: bearer(generateApiKey().secret) })).status).toBe(401);
      const { apiKey, id } = await a.mintKey(`mint-${i}`);
      const onB = await b.fetch('/whoami', { headers: bearer(apiKey) });
      expect(onB.status).toBe(200);
      expect(await onB.json()).toEqual({ accountId: `mint-${i}`, credential: 'api_key', keyId: id });
    }
  }, 60_000);

  it('answers a flood of random well-formed keys from memory: at most 0.01 key-table reads (transactions) per request', async () => {
    const { b, db } = instances();
    const requests = 2_000;
    const before = await keyTableReads(db.url);
    for (let sent = 0; sent < requests; sent += 50) {
      const statuses = await Promise.all(
        Array.from({ length: 50 }, async () => (await b.fetch('/whoami', { headers: bearer(generateApiKey().secret) })).status),
      );
      expect(statuses.every((s) => s === 401)).toBe(true);
    }
    // Each lookup that reached the database would be one read of the key table (one transaction).
    expect(((await keyTableReads(db.url)) - before) / requests).toBeLessThanOrEqual(0.01);
  }, 60_000);

  it('applied each migration once', async () => {
    const { a } = instances();
    const { rows } = await a.running.db.query<{ namespace: string; n: string }>(
      'select namespace, count(*)::text as n from drops_schema_migrations group by namespace order by namespace',
    );
    expect(rows).toEqual([
      { namespace: 'drops_auth_keys', n: String(keyStoreMigrations.length) },
      { namespace: 'drops_server', n: '1' },
    ]);
  });
});
