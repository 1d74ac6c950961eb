import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, requestLogger } from './logger.js';

const servers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function serve(level: string): Promise<{ url: string; logs: string[] }> {
  const logs: string[] = [];
  const logger = createLogger({ level }, { write: (line: string) => void logs.push(line) });
  const app = express();
  app.use(requestLogger(logger));
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

describe('requestLogger', () => {
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
});
