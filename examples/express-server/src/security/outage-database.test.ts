import { describe, expect, it } from 'vitest';
import { useProxiedServer } from '../testing/proxied-server.js';
import { bearer } from '../testing/test-server.js';
import { until } from '../testing/until.js';

type Phase = 'before' | 'cutting' | 'cut' | 'restoring' | 'after';
interface Answer {
  readonly cycle: number;
  /** The phase when the request was sent, and when its answer arrived. */
  readonly phase: Phase;
  readonly answeredIn: Phase;
  readonly route: string;
  readonly status: number;
}

const proxied = useProxiedServer();

const WAIT_ATTEMPTS = 2_000;

describe('PostgreSQL cut and restored (TCP proxy) while requests run', () => {
  it('answers 503 while cut (never 200, never 401, never 500), /healthz 503, and recovers without a restart', async () => {
    const { s, proxy } = proxied();
    const key = await s.mintKey('db-outage');
    const token = await s.token('db-outage');
    // Every route here needs the database to answer.
    const routes: Array<[string, () => Promise<Response>]> = [
      ['whoami by API key', () => s.fetch('/whoami', { headers: bearer(key.apiKey) })],
      ['drops by API key', () => s.fetch('/drops', { headers: bearer(key.apiKey) })],
      ['keys by ID token', () => s.fetch('/keys', { headers: bearer(token) })],
      ['deploy by API key', () => s.fetch('/deploy', { method: 'POST', headers: bearer(key.apiKey), body: 'x' })],
    ];
    let phase: Phase = 'before';
    let cycle = 0;
    let stop = false;
    const answers: Answer[] = [];
    const count = (p: Phase): number => answers.filter((a) => a.cycle === cycle && a.phase === p && a.answeredIn === p).length;
    const worker = async (w: number): Promise<void> => {
      for (let i = w; !stop; i++) {
        const [route, send] = routes[i % routes.length]!;
        const [sentIn, sentCycle] = [phase, cycle];
        const res = await send();
        await res.arrayBuffer();
        answers.push({ cycle: sentCycle, phase: sentIn, answeredIn: sentCycle === cycle ? phase : 'after', route, status: res.status });
      }
    };
    const workers = Array.from({ length: 16 }, (_, w) => worker(w));
    try {
      for (cycle = 0; cycle < 2; cycle++) {
        await until(() => count('before') >= 100, 'requests before the cut', WAIT_ATTEMPTS);
        phase = 'cutting';
        await proxy.cut();
        phase = 'cut';
        const health = await s.fetch('/healthz');
        expect(health.status).toBe(503);
        expect(health.headers.get('retry-after')).toBe('5');
        await until(() => count('cut') >= 100, 'requests during the cut', WAIT_ATTEMPTS);
        phase = 'restoring';
        await proxy.restore();
        // The pool reconnects by itself: the first success may take a few attempts. API keys come
        // back once the instance holds its cache lease again (a renewal, then the membership read
        // anew: docs/revocation.md), so every route is waited for, not the first to succeed.
        await until(
          () =>
            routes.every(([route]) =>
              answers.some(
                (a) => a.cycle === cycle && a.phase === 'restoring' && a.route === route && (a.status === 200 || a.status === 201),
              ),
            ),
          'the first success of every route after the restore',
          WAIT_ATTEMPTS,
        );
        phase = 'after';
        await until(() => count('after') >= 100, 'requests after the restore', WAIT_ATTEMPTS);
        expect((await s.fetch('/healthz')).status).toBe(200);
        phase = 'before';
      }
    } finally {
      stop = true;
      await Promise.all(workers);
    }

    for (const a of answers) expect([200, 201, 503], `${a.route} (${a.phase})`).toContain(a.status);
    // Sent and answered while the database was cut: 503, every one.
    const duringCut = answers.filter((a) => a.phase === 'cut' && a.answeredIn === 'cut');
    expect(duringCut.length).toBeGreaterThanOrEqual(200);
    expect(duringCut.filter((a) => a.status !== 503)).toEqual([]);
    // Sent once service was back: all succeed.
    expect(answers.filter((a) => a.phase === 'after' && a.status !== 200 && a.status !== 201)).toEqual([]);
    // The key still works and was never called bad.
    expect((await s.fetch('/whoami', { headers: bearer(key.apiKey) })).status).toBe(200);
    expect(answers.some((a) => a.status === 401)).toBe(false);
    // Each outage and its end said once at warn, with no one wiring a logger to the authenticator
    // by hand, thousands of requests notwithstanding.
    const said = (words: string) => s.logs.filter((line) => line.includes(`drops-auth: key store ${words}`)).length;
    expect([said('unusable'), said('usable again')]).toEqual([2, 2]);
  }, 90_000);
});
