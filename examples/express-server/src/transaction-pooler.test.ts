import { LocalIdentityProvider } from '@drops/auth/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgBouncer, type PgBouncer } from '../../../bench/pgbouncer.mjs';
import { killChildServers, spawnMain, startChildServer, type ChildServer } from './testing/child-server.js';
import { startNotificationDroppingProxy, type NotificationDroppingProxy } from './testing/notification-dropping-proxy.js';
import { createTestDatabase, type TestDatabase } from './testing/test-database.js';
import { bearer } from './testing/test-server.js';
import { changeInPlainSql } from './testing/until-acknowledged.js';

/** Resolves once `check()` holds, asking every 50 ms; throws naming `what` after `ms`. */
async function within(ms: number, check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Reference servers as real processes, DATABASE_URL through a real PgBouncer (Debian's) in
// transaction mode, in front of the tests' PostgreSQL: docs/postgres.md#poolers.
describe('DATABASE_URL through PgBouncer in transaction mode', () => {
  let idp: LocalIdentityProvider;
  let db: TestDatabase;
  let bouncer: PgBouncer;
  let proxy: NotificationDroppingProxy;
  let a: ChildServer;
  let b: ChildServer;

  const env = (listenUrl: string | null): Record<string, string> => ({
    AUTH_ISSUER: idp.issuer,
    AUTH_AUDIENCE: idp.audience,
    AUTH_JWKS_URL: idp.jwksUrl,
    DATABASE_URL: bouncer.through(db.url),
    ...(listenUrl !== null ? { DATABASE_LISTEN_URL: listenUrl } : {}),
    MINT_RATE_LIMIT: '1000000',
    METRICS_PORT: 'off',
  });
  const call = (server: ChildServer, path: string, init: RequestInit = {}): Promise<Response> => fetch(`${server.url}${path}`, init);
  const status = async (server: ChildServer, path: string, init: RequestInit = {}): Promise<number> => {
    const res = await call(server, path, init);
    await res.arrayBuffer();
    return res.status;
  };
  const mint = async (server: ChildServer, sub: string): Promise<{ apiKey: string; id: string }> => {
    const res = await call(server, '/keys', { method: 'POST', headers: bearer(idp.mintIdToken({ sub })) });
    if (res.status !== 201) throw new Error(`POST /keys answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { apiKey: string; id: string };
  };

  beforeAll(async () => {
    idp = await LocalIdentityProvider.start();
    db = await createTestDatabase();
    bouncer = await startPgBouncer('transaction');
    proxy = await startNotificationDroppingProxy();
  }, 30_000);
  afterAll(async () => {
    await killChildServers();
    await proxy?.close();
    await bouncer?.stop();
    await db?.drop();
    await idp?.close();
  }, 30_000);

  it('refuses to start without DATABASE_LISTEN_URL, with one line naming it', async () => {
    const run = spawnMain({ ...env(null), PORT: '0', LOG_FORMAT: 'json' });
    expect(await run.exited).toBe(1);
    const refusal = run.stdout
      .join('')
      .split('\n')
      .filter((line) => line.includes('DATABASE_LISTEN_URL'));
    expect(refusal).toHaveLength(1);
    expect(refusal[0]).toMatch(/transaction-mode pooler/);
  }, 30_000);

  it('with DATABASE_LISTEN_URL direct: a mint and a revoke on one instance hold on the other at once, and concurrent traffic sees no 5xx', async () => {
    [a, b] = await Promise.all([startChildServer(env(db.url)), startChildServer(env(db.url))]);
    let started = performance.now();
    const key = await mint(a, 'pooled-account');
    expect(await status(b, '/whoami', { headers: bearer(key.apiKey) })).toBe(200);
    expect(performance.now() - started).toBeLessThan(2_000);
    started = performance.now();
    expect(await status(a, `/keys/${key.id}`, { method: 'DELETE', headers: bearer(key.apiKey) })).toBe(204);
    expect(await status(b, '/whoami', { headers: bearer(key.apiKey) })).toBe(401);
    expect(performance.now() - started).toBeLessThan(2_000);

    // 8 workers for 8 s, each minting on one instance, using the key on the other, revoking it on one.
    const unexpected: string[] = [];
    let rounds = 0;
    const until = performance.now() + 8_000;
    const worker = async (w: number): Promise<void> => {
      for (let i = 0; performance.now() < until; i++) {
        const [here, there] = (w + i) % 2 === 0 ? [a, b] : [b, a];
        const { apiKey, id } = await mint(here, `worker-${w}`).catch((error: Error) => {
          unexpected.push(error.message);
          return { apiKey: '', id: '' };
        });
        if (id === '') continue;
        const used = await status(there, '/whoami', { headers: bearer(apiKey) });
        const revoked = await status(i % 3 === 0 ? here : there, `/keys/${id}`, { method: 'DELETE', headers: bearer(apiKey) });
        const after = await status(here, '/whoami', { headers: bearer(apiKey) });
        if (used !== 200 || revoked !== 204 || after !== 401)
          unexpected.push(`worker ${w}: used ${used}, revoked ${revoked}, after ${after}`);
        rounds++;
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
    expect(unexpected).toEqual([]);
    expect(rounds).toBeGreaterThanOrEqual(8); // every worker went round at least once
  }, 60_000);

  it('an expiry an operator changes in plain SQL through the pooler holds on both instances, ended as well as given back', async () => {
    const { apiKey, id } = await mint(a, 'pooled-expiry');
    const both = async (): Promise<number[]> => [
      await status(a, '/whoami', { headers: bearer(apiKey) }),
      await status(b, '/whoami', { headers: bearer(apiKey) }),
    ];
    expect(await both()).toEqual([200, 200]); // both hold it in memory
    const operator = new pg.Client({ connectionString: bouncer.through(db.url) });
    await operator.connect();
    try {
      const setExpiry = (expiresAt: string) =>
        changeInPlainSql(operator, `update drops_auth_keys set expires_at = ${expiresAt} where id = $1`, [id]);
      await setExpiry("now() - interval '1 minute'");
      expect(await both()).toEqual([401, 401]);
      await setExpiry("now() + interval '1 hour'");
      expect(await both()).toEqual([200, 200]);
    } finally {
      await operator.end();
    }
  }, 30_000);

  it('an instance that stops hearing announcements gives up its lease (503s, never a stale answer), lets mints and revokes on others answer, and serves again once it hears', async () => {
    const deafened = await startChildServer(env(proxy.through(db.url)));
    const live = await mint(a, 'deaf-account');
    const doomed = await mint(a, 'deaf-account');
    expect(await status(deafened, '/whoami', { headers: bearer(live.apiKey) })).toBe(200);
    expect(await status(deafened, '/whoami', { headers: bearer(doomed.apiKey) })).toBe(200); // kept in memory there

    // Probe the deaf instance all along: each answer with the time its request started.
    const answers: { key: string; sentAt: number; status: number }[] = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        for (const [name, apiKey] of [
          ['live', live.apiKey],
          ['doomed', doomed.apiKey],
        ] as const) {
          const sentAt = performance.now();
          answers.push({ key: name, sentAt, status: await status(deafened, '/whoami', { headers: bearer(apiKey) }) });
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    proxy.deafen();
    const deafAt = performance.now();
    expect(await status(a, `/keys/${doomed.id}`, { method: 'DELETE', headers: bearer(doomed.apiKey) })).toBe(204);
    const revokedAt = performance.now();
    expect(revokedAt - deafAt).toBeLessThan(15_000);
    const fresh = await mint(b, 'deaf-account');
    expect(performance.now() - revokedAt).toBeLessThan(15_000);
    await within(
      15_000 - (performance.now() - deafAt),
      async () => (await status(deafened, '/healthz')) === 503,
      '/healthz 503 on the deaf instance',
    );
    expect([401, 503]).toContain(await status(deafened, '/whoami', { headers: bearer(fresh.apiKey) }));
    expect(await status(deafened, '/whoami', { headers: bearer(fresh.apiKey) })).not.toBe(401);

    proxy.hear();
    const hearsAt = performance.now();
    await within(20_000, async () => (await status(deafened, '/whoami', { headers: bearer(fresh.apiKey) })) === 200, 'serving keys again');
    expect(performance.now() - hearsAt).toBeLessThan(20_000);
    expect(await status(deafened, '/healthz')).toBe(200);
    probing = false;
    await probe;

    expect(answers.filter((x) => x.key === 'doomed' && x.sentAt > revokedAt && x.status === 200)).toEqual([]);
    expect(answers.filter((x) => x.key === 'live' && x.status !== 200 && x.status !== 503)).toEqual([]);
    expect(answers.some((x) => x.status === 503)).toBe(true);
    expect(proxy.dropped).toBeGreaterThan(0);
    expect(await status(deafened, '/whoami', { headers: bearer(live.apiKey) })).toBe(200);
    expect(await status(deafened, '/whoami', { headers: bearer(doomed.apiKey) })).toBe(401);
  }, 60_000);
});
