import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { bearer } from '../testing/test-server.js';
import { useTwoInstances } from '../testing/two-instances.js';

interface Use {
  readonly sentAt: number;
  readonly status: number;
}

describe('two instances on one PostgreSQL: revocation is linearizable', () => {
  const instances = useTwoInstances();

  it('refuses on A every request sent after the DELETE on B was answered', async () => {
    const { a, b, idp } = instances();
    for (let round = 0; round < 5; round++) {
      const key = await a.mintKey(`cluster-${round}`);
      const uses: Use[] = [];
      let stop = false;
      // Eight clients hammer instance A with the key...
      const clients = Array.from({ length: 8 }, async () => {
        while (!stop) {
          const sentAt = performance.now();
          const res = await a.fetch('/whoami', { headers: bearer(key.apiKey) });
          await res.arrayBuffer();
          uses.push({ sentAt, status: res.status });
        }
      });
      // ...while instance B revokes it, once A has served it a few times.
      while (uses.length < 20) await new Promise((r) => setTimeout(r, 2));
      const del = await b.fetch(`/keys/${key.id}`, { method: 'DELETE', headers: bearer(idp.mintIdToken({ sub: `cluster-${round}` })) });
      const answeredAt = performance.now();
      expect(del.status).toBe(204);
      const countAtAnswer = uses.length;
      while (uses.length < countAtAnswer + 40) await new Promise((r) => setTimeout(r, 2));
      stop = true;
      await Promise.all(clients);

      const after = uses.filter((u) => u.sentAt > answeredAt);
      expect(after.length).toBeGreaterThanOrEqual(30);
      expect(after.filter((u) => u.status !== 401)).toEqual([]);
      expect(uses.filter((u) => u.sentAt < answeredAt && u.status === 200).length).toBeGreaterThanOrEqual(20);
      for (const u of uses) expect([200, 401]).toContain(u.status);
    }
  }, 60_000);
});
