import { describe, expect, it } from 'vitest';
import { bearer, type TestServer } from '../testing/test-server.js';
import { useTwoInstances } from '../testing/two-instances.js';

/** Races per test, as the attack ran them. */
const RACES = 60;
/**
 * How long after the roll or mint each race sends `DELETE /keys`: the window where the old code
 * failed (the roll's transaction open) was 3 ms after it on the attacker's machine, 20 to 50 ms on
 * a busy 2-core one; the spread covers both.
 */
const SKEWS_MS = Array.from({ length: 25 }, (_, i) => 2 * i);
/** Races run at once (each on its own account). */
const AT_ONCE = 4;

/** How a race ended: each answer, and whether each key still works on each instance. */
interface Outcome {
  readonly other: string;
  readonly revokeAll: string;
  readonly works: Record<string, readonly boolean[]>;
}

let accounts = 0;

const after = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `apiKey` authenticates on each instance. */
async function worksOn(servers: readonly TestServer[], apiKey: string): Promise<boolean[]> {
  return Promise.all(servers.map(async (s) => (await s.fetch('/whoami', { headers: bearer(apiKey) })).status === 200));
}

/** `count` races of `run` with at most {@link AT_ONCE} at a time, each on its own account. */
async function races(count: number, run: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next < count) await run(next++);
    }),
  );
}

/**
 * The attack of issue 35: `POST /keys/<id>/roll` (or `POST /keys`) on one instance and
 * `DELETE /keys` of the same account on the other, sent just after it. Each race must end as the
 * two requests would one after the other, on both instances.
 */
describe('two instances on one PostgreSQL: revoke-all racing a roll or a mint', () => {
  const instances = useTwoInstances();

  /** Races `request` (on one instance) against `DELETE /keys` (on the other) for a fresh account with one key. */
  async function race(i: number, request: (s: TestServer, token: string, old: string) => Promise<Response>): Promise<Outcome> {
    const { a, b, idp } = instances();
    const [first, second] = i % 2 === 0 ? [a, b] : [b, a];
    const sub = `race-${++accounts}`;
    const old = await first.mintKey(sub);
    const token = idp.mintIdToken({ sub });
    const [other, all] = await Promise.all([
      request(first, token, old.id),
      after(SKEWS_MS[i % SKEWS_MS.length]!).then(() => second.fetch('/keys', { method: 'DELETE', headers: bearer(token) })),
    ]);
    const created = other.status === 201 ? ((await other.json()) as { apiKey: string }) : null;
    const works: Record<string, readonly boolean[]> = { old: await worksOn([a, b], old.apiKey) };
    if (created !== null) works['new'] = await worksOn([a, b], created.apiKey);
    return { other: String(other.status), revokeAll: `${all.status} ${await all.text()}`, works };
  }

  const roll = (s: TestServer, token: string, old: string): Promise<Response> =>
    s.fetch(`/keys/${old}/roll`, { method: 'POST', headers: bearer(token) });
  const mint = (s: TestServer, token: string): Promise<Response> => s.fetch('/keys', { method: 'POST', headers: bearer(token) });

  it(`${RACES} races against a roll: the rolled-in key is revoked too, or the roll finds its key revoked`, async () => {
    const outcomes: Outcome[] = [];
    await races(RACES, async (i) => {
      outcomes.push(await race(i, roll));
    });
    const serial: Outcome[] = [
      { other: '201', revokeAll: '200 {"revoked":2}', works: { old: [false, false], new: [false, false] } },
      { other: '404', revokeAll: '200 {"revoked":1}', works: { old: [false, false] } },
    ];
    expect(outcomes.filter((o) => !serial.some((s) => JSON.stringify(s) === JSON.stringify(o)))).toEqual([]);
    // Some rolls went first: revoke-all met them mid-transaction or after, where the old code failed.
    expect(outcomes.filter((o) => o.other === '201').length).toBeGreaterThan(0);
  }, 60_000);

  it(`${RACES} races against a mint: the new key is revoked and counted, or works everywhere and is not counted`, async () => {
    const outcomes: Outcome[] = [];
    await races(RACES, async (i) => {
      outcomes.push(await race(i, mint));
    });
    const serial: Outcome[] = [
      { other: '201', revokeAll: '200 {"revoked":2}', works: { old: [false, false], new: [false, false] } },
      { other: '201', revokeAll: '200 {"revoked":1}', works: { old: [false, false], new: [true, true] } },
    ];
    expect(outcomes.filter((o) => !serial.some((s) => JSON.stringify(s) === JSON.stringify(o)))).toEqual([]);
  }, 60_000);
});
