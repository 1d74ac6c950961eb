import { createKeyManager, UnavailableError, type Principal } from '@drops/auth';
import type { TcpProxy } from '@drops/auth/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateKeyStore, RATE_LIMITS_TABLE } from './key-store-migrations.js';
import { openPostgres } from './open-postgres.js';
import { PostgresKeyStore } from './postgres-key-store.js';
import { PostgresRateLimitStore } from './postgres-rate-limit-store.js';
import type { Queryable } from './queryable.js';
import { freshDatabase, type FreshDatabase } from './test-support/fresh-database.js';
import { proxyInFront } from './test-support/proxy-in-front.js';

// Two pools on one database stand for two instances; a third reaches it through a proxy the
// outage test cuts, so no other test loses its database.
let database: FreshDatabase;
let proxy: TcpProxy;
let a: Queryable;
let b: Queryable;
let proxied: Queryable;

beforeAll(async () => {
  database = await freshDatabase('rate_limits');
  a = await openPostgres({ connectionString: database.url });
  b = await openPostgres({ connectionString: database.url });
  await migrateKeyStore(a);
  let url: string;
  ({ proxy, url } = await proxyInFront(database.url));
  proxied = await openPostgres({ connectionString: url, connectionTimeoutMs: 1_000 });
});

afterAll(async () => {
  await Promise.all([a?.close(), b?.close(), proxied?.close()]);
  await proxy?.close();
  await database?.drop();
});

const hour = { max: 3, windowMs: 3_600_000 };

describe('PostgresRateLimitStore', () => {
  it('allows max per window for one subject, counted together by two instances, then the wait', async () => {
    const one = new PostgresRateLimitStore({ db: a });
    const two = new PostgresRateLimitStore({ db: b });
    expect(await one.take('mint', 'acct_shared', hour)).toBe(0);
    expect(await two.take('mint', 'acct_shared', hour)).toBe(0);
    expect(await one.take('mint', 'acct_shared', hour)).toBe(0);
    const waits = [await two.take('mint', 'acct_shared', hour), await one.take('mint', 'acct_shared', hour)];
    for (const wait of waits) {
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(hour.windowMs);
    }
    const { rows } = await a.query<{ key: string }>(`select key from ${RATE_LIMITS_TABLE} where key like '%acct_shared'`);
    expect(rows.map((r) => r.key)).toEqual(['mint:acct_shared']);
  });

  it('counts each subject and each scope apart', async () => {
    const store = new PostgresRateLimitStore({ db: a });
    for (let i = 0; i < 3; i++) expect(await store.take('mint', 'acct_x', hour)).toBe(0);
    expect(await store.take('mint', 'acct_x', hour)).toBeGreaterThan(0);
    expect(await store.take('mint', 'acct_y', hour)).toBe(0);
    expect(await store.take('revoke_by_value', 'acct_x', hour)).toBe(0);
  });

  it('keys a subject too long for the table by its digest, still one count per subject', async () => {
    const store = new PostgresRateLimitStore({ db: a });
    const long = `acct_${'x'.repeat(400)}`;
    const longer = `${long}z`;
    for (let i = 0; i < 3; i++) expect(await store.take('mint', long, hour)).toBe(0);
    expect(await store.take('mint', long, hour)).toBeGreaterThan(0);
    expect(await store.take('mint', longer, hour)).toBe(0);
  });

  it('allows the subject again once the window it waited for has passed', async () => {
    const store = new PostgresRateLimitStore({ db: a });
    const short = { max: 2, windowMs: 400 };
    expect([await store.take('mint', 'acct_refill', short), await store.take('mint', 'acct_refill', short)]).toEqual([0, 0]);
    const wait = await store.take('mint', 'acct_refill', short);
    expect(wait).toBeGreaterThan(0);
    await sleep(wait + 50);
    expect(await store.take('mint', 'acct_refill', short)).toBe(0);
  });

  it('rejects when the database cannot answer, which the key manager answers 503 (never a mint)', async () => {
    const store = new PostgresRateLimitStore({ db: proxied, queryTimeoutMs: 1_000 });
    expect(await store.take('mint', 'acct_outage', hour)).toBe(0);
    proxy.cut();
    try {
      await expect(store.take('mint', 'acct_outage', hour)).rejects.toThrow();
      const principal: Principal = {
        accountId: 'acct_outage',
        credential: 'id_token',
        claims: { sub: 'o', iss: 'i', aud: 'a', iat: 1, exp: 2 },
      };
      const keyStore = new PostgresKeyStore({ db: a, cache: false });
      const keys = createKeyManager({ keyStore, rateLimitStore: store, mintRateLimit: hour });
      const error = await keys.mint(principal).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(UnavailableError);
      expect(error).toMatchObject({ status: 503, dependency: 'rate_limit_store' });
      expect(await keyStore.listByAccount('acct_outage')).toEqual([]);
      await keyStore.close();
    } finally {
      proxy.restore();
    }
    expect(await store.take('mint', 'acct_outage', hour)).toBe(0);
  });

  it('refuses a db that is not a Queryable', () => {
    expect(() => new PostgresRateLimitStore({} as never)).toThrow(TypeError);
  });
});
