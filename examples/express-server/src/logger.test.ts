import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { useRequestContext } from './request-context.js';

const servers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function serve(level: string): Promise<{ url: string; logs: string[] }> {
  const logs: string[] = [];
  const logger = createLogger({ level }, { write: (line: string) => void logs.push(line) });
  const app = express();
  useRequestContext(app, { logger });
  app.get('/warn', (req, res) => {
    req.log.warn({ detail: 'something odd' }, 'a warning');
    res.json({ ok: true });
  });
  app.get('/quiet', (_req, res) => res.json({ ok: true }));
  const server = createServer(app).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, logs };
}

describe('useRequestContext', () => {
  it('writes one access line per request at info, with the request id it echoes', async () => {
    const { url, logs } = await serve('info');
    const res = await fetch(`${url}/quiet`, { headers: { 'x-request-id': 'abc-1' } });
    expect(res.headers.get('x-request-id')).toBe('abc-1');
    await new Promise((r) => setTimeout(r, 20));
    const lines = logs.map((l) => JSON.parse(l) as { req?: { id?: string }; res?: { statusCode?: number } });
    expect(lines.filter((l) => l.req?.id === 'abc-1' && l.res?.statusCode === 200)).toHaveLength(1);
  });

  it('above info writes no access line, but still echoes the id and binds it to warnings', async () => {
    const { url, logs } = await serve('warn');
    const quiet = await fetch(`${url}/quiet`);
    expect(quiet.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const res = await fetch(`${url}/warn?token=hp_${'A'.repeat(43)}`, { headers: { 'x-request-id': 'trace-9' } });
    expect(res.headers.get('x-request-id')).toBe('trace-9');
    await new Promise((r) => setTimeout(r, 20));
    expect(logs).toHaveLength(1);
    const line = JSON.parse(logs[0]!) as { msg: string; level: number; req: { id: string; url: string } };
    expect(line).toMatchObject({ msg: 'a warning', level: 40, req: { id: 'trace-9' } });
    expect(line.req.url).not.toContain('hp_A');
  });

  // A credential pasted (or injected) as a request id would otherwise be echoed in the response and
  // written to every log line of the request: anything the scrubber would redact is not an id.
  it.each(['info', 'warn'])('at %s replaces a request id shaped like a credential, in the response and the logs', async (level) => {
    const { url, logs } = await serve(level);
    const apiKey = `hp_${'Q'.repeat(20)}x_-${'r'.repeat(20)}`;
    const idToken = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl';
    for (const credential of [apiKey, idToken, `trace:${apiKey}`]) {
      const res = await fetch(`${url}/warn`, { headers: { 'x-request-id': credential } });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    await new Promise((r) => setTimeout(r, 20));
    expect(logs.length).toBeGreaterThanOrEqual(3);
    const output = logs.join('');
    expect(output).not.toContain('QQQQQQQQQQ');
    expect(output).not.toContain('eyJ');
    for (const line of logs) expect((JSON.parse(line) as { req: { id: string } }).req.id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('createLogger', () => {
  // Lines go to stdout in batches: one logged just before process.exit(), with no flush, is still written.
  it('writes every line to stdout by the time the process exits', async () => {
    const script = [
      `import { createLogger } from ${JSON.stringify(fileURLToPath(new URL('./logger.ts', import.meta.url)))};`,
      `const logger = createLogger({ level: 'info', format: 'json' });`,
      `for (let i = 0; i < 3; i++) logger.info({ i }, 'line');`,
      `process.exit(0);`,
    ].join('\n');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      timeout: 20_000,
    });
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { i: number; msg: string });
    expect(lines.map((l) => [l.i, l.msg])).toEqual([
      [0, 'line'],
      [1, 'line'],
      [2, 'line'],
    ]);
  }, 30_000);

  // A full batch is written before logging returns: no thread-pool hop per batch, and nothing
  // held in memory behind a write in flight (nor behind the pool's other work).
  it('writes a full batch to stdout before the call that filled it returns', async () => {
    const script = [
      `import { pbkdf2 } from 'node:crypto';`,
      `import { fstatSync } from 'node:fs';`,
      // The thread pool's one thread (UV_THREADPOOL_SIZE=1) busy: a write handed to it would wait.
      `pbkdf2('x', 'y', 2_000_000, 32, 'sha256', () => {});`,
      `import { createLogger } from ${JSON.stringify(fileURLToPath(new URL('./logger.ts', import.meta.url)))};`,
      `const logger = createLogger({ level: 'info', format: 'json' });`,
      `for (let i = 0; i < 100; i++) logger.info({ i, padding: 'x'.repeat(200) }, 'line');`,
      `process.stderr.write(String(fstatSync(1).size));`,
      `process.exit(0);`,
    ].join('\n');
    const dir = await mkdtemp(join(tmpdir(), 'drops-logger-'));
    const out = await open(join(dir, 'stdout'), 'w');
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        stdio: ['ignore', out.fd, 'pipe'],
        env: { ...process.env, UV_THREADPOOL_SIZE: '1' },
      });
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      await once(child, 'exit');
      // 100 lines of about 290 bytes: at least one 16 KiB batch written while logging.
      expect(Number(stderr)).toBeGreaterThanOrEqual(16 * 1024);
      expect((await readFile(join(dir, 'stdout'), 'utf8')).trim().split('\n')).toHaveLength(100);
    } finally {
      await out.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
