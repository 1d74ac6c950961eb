import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromPgPool } from './from-pg-pool.js';
import { migrateKeyStore } from './key-store-migrations.js';
import type { Queryable } from './queryable.js';
import { freshDatabase, type FreshDatabase } from './test-support/fresh-database.js';
import { runRevocationChaos } from './test-support/revocation-chaos.js';

// The randomized test of docs/revocation.md. Seconds in `pnpm test`; bench/revocation.bench.mjs
// runs it longer. Replay a failure with DROPS_CHAOS_SEED=<seed> (printed below and on failure).
let database: FreshDatabase;
let direct: Queryable;

beforeAll(async () => {
  database = await freshDatabase('chaos');
  direct = fromPgPool(database.pool());
  await migrateKeyStore(direct);
});

afterAll(async () => {
  await database?.drop();
});

describe('revocation under partitions, black holes, dropped LISTEN sessions, lost announcements and a kill', () => {
  it('never accepts a revoked key or a random one, never refuses a minted key, never a 503 for a random key under the lease', async () => {
    const seed = Number(process.env.DROPS_CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const durationMs = Number(process.env.DROPS_CHAOS_MS ?? 4_000);
    console.log(`revocation chaos: seed ${seed}, ${durationMs} ms`);
    const report = await runRevocationChaos({ url: database.url, direct, seed, durationMs });
    console.log(JSON.stringify({ ...report, waits: report.waits.length }));
    expect(report.violations, `seed ${seed}`).toEqual([]);
    // The run did what it claims: requests answered, revocations returned, faults injected.
    expect(report.requests.accepted).toBeGreaterThan(0);
    expect(report.revocationsReturned).toBeGreaterThan(0);
    expect(report.faults['killed mid-revoke'], `seed ${seed}`).toBeGreaterThanOrEqual(1);
    expect(report.faults['announcements lost'], `seed ${seed}`).toBeGreaterThanOrEqual(1);
    // Keys minted on one instance worked at once on another; random ids were refused.
    expect(report.mints.usedElsewhere, `seed ${seed}`).toBeGreaterThan(0);
    expect(report.flood.refused, `seed ${seed}`).toBeGreaterThan(0);
  }, 120_000);
});
