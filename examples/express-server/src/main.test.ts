import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killChildServers, listening, logEntries, spawnMain, type ChildProcessRun } from './testing/child-server.js';
import { createTestDatabase, type TestDatabase } from './testing/test-database.js';
import { dataDirForTest } from './testing/pglite-template.js';

const startMain = (env: Record<string, string>): ChildProcessRun => spawnMain({ LOG_FORMAT: 'json', ...env });

describe('main.ts', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await killChildServers();
    await db?.drop();
  }, 30_000);

  it('drains a request in flight on SIGTERM, refuses new connections, then exits 0', async () => {
    const child = startMain({ PORT: '0', DATABASE_URL: db.url, DEV_IDENTITY_PROVIDER: 'on' });
    const started = await listening(child);
    expect(started.pid).toBe(child.pid); // SIGTERM goes to the server itself
    const url = new URL(started.url);
    // A deploy whose body arrives in two halves, with SIGTERM in between.
    let refusedNewConnection: boolean | undefined;
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: '/deploy',
          method: 'POST',
          headers: { 'content-length': '10', 'content-type': 'text/plain' },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write('hello');
      setTimeout(() => {
        process.kill(child.pid, 'SIGTERM');
        setTimeout(() => {
          // Not accepting any more, while the first request is still open.
          fetch(`${url.origin}/healthz`)
            .then(
              () => (refusedNewConnection = false),
              () => (refusedNewConnection = true),
            )
            .finally(() => req.end('world'));
        }, 500);
      }, 300);
    });
    const { status, body } = await response;
    expect(refusedNewConnection).toBe(true);
    expect(status).toBe(201);
    expect(JSON.parse(body)).toMatchObject({ owner: null });
    expect(await child.exited).toBe(0);
    // Access lines are written in batches: the drained request's line, and the last words, are
    // still written when the process exits.
    const lines = logEntries<{ msg: string; req?: { method: string; route: string }; res?: { statusCode: number } }>(child.stdout);
    expect(
      lines.some(
        (l) => l.msg === 'request completed' && l.req?.method === 'POST' && l.req.route === '/deploy' && l.res?.statusCode === 201,
      ),
    ).toBe(true);
    expect(lines.at(-1)?.msg).toBe('shut down cleanly');
  }, 60_000);

  // pnpm passes a signal on to the shell it started: the pid spawned must be the server's.
  it('runs as `pnpm start` runs it: the built server listens as the pid spawned, answers, and drains on SIGTERM', async () => {
    const child = spawnMain({ LOG_FORMAT: 'json', PORT: '0', METRICS_PORT: 'off', DATA_DIR: await dataDirForTest() }, { built: true });
    const started = await listening(child);
    expect(started.pid).toBe(child.pid);
    const health = await fetch(`${started.url}/healthz`);
    expect(health.status).toBe(200);
    const refused = await fetch(`${started.url}/whoami`, { headers: { authorization: `Bearer hp_${'A'.repeat(43)}` } });
    expect(refused.status).toBe(401);
    process.kill(child.pid, 'SIGTERM');
    expect(await child.exited).toBe(0);
    expect(child.stdout.join('')).toContain('"msg":"shut down cleanly"');
  }, 60_000);

  it("names the source's lines in a built server's stack traces", async () => {
    // Nothing listens on port 1: the migration's connection is refused, and the error is logged.
    const env = { LOG_FORMAT: 'json', PORT: '0', METRICS_PORT: 'off', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' };
    const child = spawnMain({ ...env, DEV_IDENTITY_PROVIDER: 'on' }, { built: true });
    expect(await child.exited).toBe(1);
    const fatal = logEntries<{ msg: string; err?: { stack?: string } }>(child.stdout).find((l) => l.msg === 'could not start');
    expect(fatal?.err?.stack).toMatch(/express-server\/src\/start-server\.ts:\d+/);
  }, 30_000);

  // Not only in the configuration: the process itself does not start, and says what to set.
  it.each(['production', 'PRODUCTION', 'prod', 'production ', 'staging'])(
    'refuses to start with NODE_ENV=%j and no identity provider, naming the variables to set',
    async (nodeEnv) => {
      const child = startMain({ NODE_ENV: nodeEnv, PORT: '0', DATA_DIR: ':memory:' });
      expect(await child.exited).toBe(1);
      expect(child.stderr.join('')).toContain(
        `NODE_ENV=${JSON.stringify(nodeEnv)} needs an identity provider: set FIREBASE_PROJECT_ID, or AUTH_ISSUER, AUTH_AUDIENCE and AUTH_JWKS_URL`,
      );
      expect(child.stdout.join('')).not.toContain('listening');
    },
    30_000,
  );

  it('starts the development identity provider with no set-up at all', async () => {
    const child = startMain({ PORT: '0', DATA_DIR: await dataDirForTest() });
    const { url } = await listening(child);
    const res = await fetch(`${url}/dev/token`, { method: 'POST', body: JSON.stringify({ name: 'alice' }) });
    expect(res.status).toBe(200);
    process.kill(child.pid, 'SIGTERM');
    expect(await child.exited).toBe(0);
  }, 60_000);

  // Issue 21: POST /dev/token mints tokens for any name; on a database shared with real instances
  // that is a takeover unless the operator said the database is for development.
  it('refuses the development identity provider beside DATABASE_URL unless DEV_IDENTITY_PROVIDER=on', async () => {
    for (const flag of [{}, { DEV_IDENTITY_PROVIDER: 'off' }] as Array<Record<string, string>>) {
      const child = startMain({ PORT: '0', METRICS_PORT: 'off', DATABASE_URL: db.url, ...flag });
      expect(await child.exited).toBe(1);
      expect(child.stderr.join('')).toContain('set DEV_IDENTITY_PROVIDER=on if the database is for development only');
      expect(child.stdout.join('')).not.toContain('listening');
    }
    const allowed = startMain({ PORT: '0', METRICS_PORT: 'off', DATABASE_URL: db.url, DEV_IDENTITY_PROVIDER: 'on' });
    const { url } = await listening(allowed);
    const res = await fetch(`${url}/dev/token`, { method: 'POST', body: JSON.stringify({ name: 'victim-prod' }) });
    expect(((await res.json()) as { accountId: string }).accountId).toBe('dev:victim-prod');
    process.kill(allowed.pid, 'SIGTERM');
    expect(await allowed.exited).toBe(0);
  }, 60_000);

  it('refuses a bad configuration with a clear message', async () => {
    const child = startMain({ PORT: 'abc', DATA_DIR: ':memory:' });
    expect(await child.exited).toBe(1);
    expect(child.stderr.join('')).toMatch(/invalid configuration:\n\s+- PORT/);
  }, 30_000);

  it('says why it could not start, on stdout, when its port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as AddressInfo;
      const child = startMain({ HOST: '127.0.0.1', PORT: String(port), METRICS_PORT: 'off', DATA_DIR: await dataDirForTest() });
      expect(await child.exited).toBe(1);
      const fatal = logEntries<{ level: number; msg: string; err?: { code?: string } }>(child.stdout);
      expect(fatal).toContainEqual(
        expect.objectContaining({ level: 60, msg: 'could not start', err: expect.objectContaining({ code: 'EADDRINUSE' }) }),
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 30_000);
});
