import { KEYS_TABLE } from '@drops/auth-postgres';
import { setTimeout } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BACKENDS, bearer, useTestServer } from '../testing/test-server.js';

// The query PostgresKeyStore.findActive runs on every API key request.
const FIND_ACTIVE = `select account_id from ${KEYS_TABLE} where id = $1 and revoked_at is null`;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Heap Fetches'?: number;
  Plans?: PlanNode[];
}

// No timing oracle between a revoked key and one that never existed: the lookup does the same
// work for both. (bench/timing.bench.mjs measures the times themselves.)
describe.each(BACKENDS)('a revoked key and an unknown key take the same path (%s)', (backend) => {
  const server = useTestServer({ backend });

  it('plans both as the same index-only lookup in the active-key index, with no heap visit', async () => {
    const s = server();
    const token = await s.token('timing-user');
    const keys = [];
    for (let i = 0; i < 20; i++) keys.push(await s.mintKey('timing-user'));
    const revoked = keys[7]!;
    expect((await s.fetch(`/keys/${revoked.id}`, { method: 'DELETE', headers: bearer(token) })).status).toBe(204);
    // Enough rows (as in any real deployment) that the planner uses an index rather than reading the one page.
    await s.running.db.query(
      `insert into ${KEYS_TABLE} (id, account_id, prefix, created_at, revoked_at)
       select encode(sha256(g::text::bytea), 'hex'), 'filler-' || (g % 100), 'hp_filler_', now(), case when g % 5 = 0 then now() end
       from generate_series(1, 5000) as g`,
    );
    const plan = async (id: string): Promise<PlanNode> => {
      const { rows } = await s.running.db.query<Record<string, unknown>>(
        `explain (analyze, costs off, format json) ${FIND_ACTIVE.replace('$1', `'${id}'`)}`,
      );
      const raw = Object.values(rows[0]!)[0];
      const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: PlanNode }>;
      return parsed[0]!.Plan;
    };
    const shape = (p: PlanNode) => ({
      node: p['Node Type'],
      index: p['Index Name'],
      rows: p['Actual Rows'],
      heap: p['Heap Fetches'] ?? 0,
    });
    // The revocation leaves a dead entry in the index (a heap visit) until VACUUM removes it. A
    // transaction older than the revocation anywhere on the server (other test files share it) can
    // keep one VACUUM from doing so; the lookup then marks the entry dead and the next VACUUM
    // removes it, as autovacuum would in a deployment.
    let ofRevoked: ReturnType<typeof shape>;
    for (const deadline = Date.now() + 20_000; ; await setTimeout(250)) {
      await s.running.db.query(`vacuum analyze ${KEYS_TABLE}`);
      ofRevoked = shape(await plan(revoked.id));
      if (ofRevoked.heap === 0 || Date.now() > deadline) break;
    }
    const ofUnknown = shape(await plan('f'.repeat(64)));
    expect(ofRevoked).toEqual({ node: 'Index Only Scan', index: `${KEYS_TABLE}_active_by_id`, rows: 0, heap: 0 });
    expect(ofUnknown).toEqual(ofRevoked);
    // The active key is found by the same lookup.
    expect(shape(await plan(keys[3]!.id))).toMatchObject({ node: 'Index Only Scan', index: `${KEYS_TABLE}_active_by_id`, rows: 1 });
  }, 45_000); // 20 mints, 5 000 rows, VACUUM ANALYZE and a retry while older transactions run
});
