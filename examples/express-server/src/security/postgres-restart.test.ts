import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, stopPostgres } from '../testing/postgres-server.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { bearer, startTestServer, type TestServer } from '../testing/test-server.js';
import { until } from '../testing/until.js';

// Stops the real PostgreSQL server. Its own vitest project (vitest.postgres-restart.config.ts,
// sequence.groupOrder 1) runs it after every other test file, alone.
type Phase = 'up' | 'stopping' | 'down' | 'starting' | 'back';
interface Answer {
  readonly phase: Phase;
  readonly answeredIn: Phase;
  readonly route: string;
  readonly status: number;
}

let db: TestDatabase;
let s: TestServer;

beforeAll(async () => {
  await startPostgres();
  db = await createTestDatabase();
  s = await startTestServer({ backend: 'postgres', databaseUrl: db.url, env: { LOG_LEVEL: 'warn' } });
}, 60_000);
afterAll(async () => {
  await startPostgres();
  await s?.close();
  await db?.drop();
}, 60_000);

const WAIT_ATTEMPTS = 6_000;

describe('the real PostgreSQL server stopped and started while requests run', () => {
  it('answers 503 while it is down (never 200, never 401), /healthz 503, and serves again with no restart', async () => {
    const key = await s.mintKey('restart-user');
    const token = await s.token('restart-user');
    const routes: Array<[string, () => Promise<Response>]> = [
      ['whoami by API key', () => s.fetch('/whoami', { headers: bearer(key.apiKey) })],
      ['drops by API key', () => s.fetch('/drops', { headers: bearer(key.apiKey) })],
      ['keys by ID token', () => s.fetch('/keys', { headers: bearer(token) })],
    ];
    let phase: Phase = 'up';
    let stop = false;
    const answers: Answer[] = [];
    const count = (p: Phase): number => answers.filter((a) => a.phase === p && a.answeredIn === p).length;
    const workers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = w; !stop; i++) {
        const [route, send] = routes[i % routes.length]!;
        const sentIn = phase;
        const res = await send();
        await res.arrayBuffer();
        answers.push({ phase: sentIn, answeredIn: phase, route, status: res.status });
      }
    });

    let healthWhileDown: number | undefined;
    try {
      await until(() => count('up') >= 50, 'requests before the stop', WAIT_ATTEMPTS);
      phase = 'stopping';
      try {
        await stopPostgres();
        phase = 'down';
        healthWhileDown = (await s.fetch('/healthz')).status;
        await until(() => count('down') >= 50, 'requests while PostgreSQL is down', WAIT_ATTEMPTS);
      } finally {
        phase = 'starting';
        await startPostgres();
      }
      await until(
        () => answers.some((a) => a.phase === 'starting' && a.status === 200),
        'the first success after the start',
        WAIT_ATTEMPTS,
      );
      phase = 'back';
      await until(() => count('back') >= 50, 'requests after the start', WAIT_ATTEMPTS);
    } finally {
      stop = true;
      await Promise.all(workers);
    }

    expect(healthWhileDown).toBe(503);
    expect((await s.fetch('/healthz')).status).toBe(200);
    for (const a of answers) expect([200, 503], `${a.route} (${a.phase})`).toContain(a.status);
    expect(answers.filter((a) => a.phase === 'down' && a.answeredIn === 'down' && a.status !== 503)).toEqual([]);
    expect(answers.filter((a) => a.phase === 'back' && a.status !== 200)).toEqual([]);
    expect((await s.fetch('/whoami', { headers: bearer(key.apiKey) })).status).toBe(200);
  }, 120_000);
});
