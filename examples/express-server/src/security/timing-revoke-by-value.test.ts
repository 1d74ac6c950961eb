import { performance } from 'node:perf_hooks';
import { generateApiKey } from '@drops/auth';
import { KEYS_TABLE } from '@drops/auth-postgres';
import { describe, expect, it } from 'vitest';
// The one Mann-Whitney U of the repository, bench/timing.bench.mjs's.
import { mannWhitney } from '../../../../bench/mann-whitney.mjs';
import { BACKENDS, useTestServer, type TestServer } from '../testing/test-server.js';

const SAMPLES = 200;
const KINDS = ['live', 'revoked', 'unknown'] as const;
type Kind = (typeof KINDS)[number];
/** Where revocations by value wait between the 202 and the revocation (migration 5 of the key store). */
const PENDING_TABLE = 'drops_auth_pending_revocations';

/** `count` keys, inserted as the store would hold them: active, or revoked before the test. */
async function seedKeys(s: TestServer, count: number, revoked: boolean): Promise<string[]> {
  const keys = Array.from({ length: count }, () => generateApiKey());
  await s.running.db.query(
    `insert into ${KEYS_TABLE} (id, account_id, prefix, created_at, revoked_at)
     select unnest($1::text[]), 'acct_timing', unnest($2::text[]), now(), case when $3::boolean then now() end`,
    [keys.map((k) => k.id), keys.map((k) => k.prefix), revoked],
  );
  return keys.map((k) => k.secret);
}

// The attack of issue 21 (item 4): 202 bytes alike, but the time told a live key (revoked in the
// request) from a revoked one and from one that never existed. One value per request, the kinds
// interleaved in a random order each round; between requests the server's background revocation
// is let finish, so each request is timed alone. The verdict is Mann-Whitney U, as for the 401s in
// bench/timing.bench.mjs: "differ" is p < 0.001 with one kind slower in over 60% of pairs.
describe.each(BACKENDS)('POST /credentials/revoke takes the same time for a live, a revoked and an unknown key (%s)', (backend) => {
  const server = useTestServer({ backend, env: { REVOKE_BY_VALUE_LIMIT: '100000' } });

  it('cannot be told apart by time (Mann-Whitney U over the wire)', async () => {
    const s = server();
    const secrets: Record<Kind, string[]> = {
      live: await seedKeys(s, SAMPLES + 20, false),
      revoked: await seedKeys(s, SAMPLES + 20, true),
      unknown: Array.from({ length: SAMPLES + 20 }, () => generateApiKey().secret),
    };
    const pendingTable = (await s.running.db.query<{ t: string | null }>(`select to_regclass($1)::text as t`, [PENDING_TABLE])).rows[0]?.t;
    const settled = async (): Promise<void> => {
      if (pendingTable === null || pendingTable === undefined) return; // a store that revokes before answering
      for (let i = 0; i < 2000; i++) {
        const { rows } = await s.running.db.query<{ n: number }>(`select count(*)::int as n from ${PENDING_TABLE}`);
        if (rows[0]?.n === 0) return;
        await new Promise((r) => setImmediate(r));
      }
      throw new Error('the revocations by value were never carried out');
    };
    const once = async (kind: Kind, i: number): Promise<number> => {
      const body = JSON.stringify({ credentials: [secrets[kind][i]] });
      const start = performance.now();
      const res = await s.fetch('/credentials/revoke', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await res.arrayBuffer();
      const elapsed = performance.now() - start;
      expect(res.status).toBe(202);
      await settled();
      return elapsed;
    };

    const samples: Record<Kind, number[]> = { live: [], revoked: [], unknown: [] };
    const order = [...KINDS];
    for (let i = 0; i < 20; i++) for (const kind of KINDS) await once(kind, SAMPLES + i); // warm-up
    for (let i = 0; i < SAMPLES; i++) {
      for (let j = order.length - 1; j > 0; j--) {
        const k = Math.floor(Math.random() * (j + 1));
        [order[j], order[k]] = [order[k]!, order[j]!];
      }
      for (const kind of order) samples[kind].push(await once(kind, i));
    }

    const verdicts = (
      [
        ['live', 'unknown'],
        ['revoked', 'unknown'],
        ['live', 'revoked'],
      ] as const
    ).map(([a, b]) => {
      const { p, superiority } = mannWhitney(samples[a], samples[b]);
      return {
        pair: `${a} vs ${b}`,
        differ: p < 0.001 && Math.abs(superiority - 0.5) > 0.1,
        p: Number(p.toPrecision(2)),
        superiority: Number(superiority.toFixed(2)),
      };
    });
    expect(verdicts.filter((v) => v.differ)).toEqual([]);
    // And the requests did their work: every live key sent is revoked, in the background.
    const { rows } = await s.running.db.query<{ n: number }>(
      `select count(*)::int as n from ${KEYS_TABLE} where account_id = 'acct_timing' and revoked_at is null`,
    );
    expect(rows[0]?.n).toBe(0);
  }, 120_000);
});
