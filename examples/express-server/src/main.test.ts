import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './testing/test-database.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));

interface Child {
  process: ChildProcessWithoutNullStreams;
  stdout: string[];
  stderr: string[];
  exited: Promise<number | null>;
}

function startMain(env: Record<string, string>): Child {
  const child = spawn(tsx, ['src/main.ts'], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', LOG_FORMAT: 'json', ...env },
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { process: child, stdout, stderr, exited };
}

async function listeningUrl(child: Child, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const line of child.stdout.join('').split('\n')) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { url?: string; msg?: string };
      if (entry.msg?.startsWith('listening') === true && entry.url !== undefined) return entry.url;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server did not start: ${child.stdout.join('')} ${child.stderr.join('')}`);
}

describe('main.ts', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  it('drains a request in flight on SIGTERM, refuses new connections, then exits 0', async () => {
    const child = startMain({ PORT: '0', DATABASE_URL: db.url });
    try {
      const url = new URL(await listeningUrl(child));
      // A deploy whose body arrives in two halves, with SIGTERM in between.
      let refusedNewConnection: boolean | undefined;
      const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          { host: url.hostname, port: url.port, path: '/deploy', method: 'POST', headers: { 'content-length': '10', 'content-type': 'text/plain' } },
          (res) => {
            let body = '';
            res.setEncoding('utf8').on('data', (c: string) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.write('hello');
        setTimeout(() => {
          child.process.kill('SIGTERM');
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
      expect(child.stdout.join('')).toContain('shut down cleanly');
    } finally {
      child.process.kill('SIGKILL');
    }
  }, 60_000);

  it('refuses to start in production without an identity provider', async () => {
    const child = startMain({ NODE_ENV: 'production', DATA_DIR: ':memory:' });
    expect(await child.exited).toBe(1);
    expect(child.stderr.join('')).toContain('NODE_ENV=production needs an identity provider');
  }, 30_000);

  it('refuses a bad configuration with a clear message', async () => {
    const child = startMain({ PORT: 'abc', DATA_DIR: ':memory:' });
    expect(await child.exited).toBe(1);
    expect(child.stderr.join('')).toMatch(/invalid configuration:\n\s+- PORT/);
  }, 30_000);
});
