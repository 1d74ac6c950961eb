import type { Request, Response } from 'express';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createAccessLog, millisecondsJson } from './access-log.js';
import { createLogger } from './logger.js';

/** A request and response as the access log reads them. */
function exchange(overrides: { req?: Record<string, unknown>; res?: Record<string, unknown> } = {}): { req: Request; res: Response } {
  const req = {
    id: 'trace-1',
    method: 'GET',
    originalUrl: '/whoami?x="quoted"\\',
    url: '/whoami',
    headers: { host: 'drops.example', 'user-agent': 'cli/1.0 "beta"\n', authorization: 'Bearer hp_secret' },
    socket: { remoteAddress: '10.0.0.7' },
    ip: '203.0.113.9',
    auth: { accountId: 'acct_1', credential: 'api_key', keyId: 'f'.repeat(64) },
    ...overrides.req,
  };
  const res = { statusCode: 200, writableFinished: true, locals: {}, ...overrides.res };
  return { req: req as unknown as Request, res: res as unknown as Response };
}

/** The line pino itself writes for the documented shape (docs/operations.md). */
function pinoLine(
  req: Request,
  res: Response,
  route: string | null,
  durationMs: number,
  level: 'info' | 'warn' | 'error',
  msg: string,
): string {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  const principal = req.auth;
  const headers: Record<string, string> = { host: req.headers.host!, 'user-agent': req.headers['user-agent']! };
  if (req.headers.authorization !== undefined) headers['authorization'] = '[redacted]';
  logger[level](
    {
      req: {
        id: req.id,
        method: req.method,
        url: req.originalUrl,
        route,
        headers,
        remoteAddress: req.socket.remoteAddress,
        clientAddress: req.ip,
      },
      res: { statusCode: res.statusCode },
      responseTime: Math.round(durationMs * 1000) / 1000,
      credential: principal?.credential,
      keyId: principal?.keyId,
      auth: res.locals['authFailure'],
    },
    msg,
  );
  return lines[0]!;
}

/** A line with its time replaced, to compare two lines written a moment apart. */
const timeless = (line: string): string => line.replace(/"time":\d+/, '"time":0');

describe('createAccessLog', () => {
  it('writes the line pino would write, byte for byte but the time, whatever the client sent', () => {
    const lines: string[] = [];
    const log = createAccessLog(createLogger({ level: 'info' }, { write: (line: string) => void lines.push(line) }))!;
    const cases: Array<[ReturnType<typeof exchange>, string | null, 'info' | 'warn' | 'error', string]> = [
      [exchange(), '/whoami', 'info', 'request completed'],
      [exchange({ req: { auth: undefined, headers: {} }, res: { statusCode: 404 } }), null, 'info', 'request completed'],
      [
        exchange({
          req: { auth: null },
          res: { statusCode: 401, locals: { authFailure: { code: 'ERR_UNAUTHENTICATED', reason: 'unknown_key' } } },
        }),
        null,
        'info',
        'request completed',
      ],
      [
        exchange({ req: { auth: { accountId: 'a', credential: 'id_token', claims: {} }, socket: {} }, res: { statusCode: 503 } }),
        '/drops',
        'error',
        'request errored',
      ],
      [exchange({ res: { writableFinished: false } }), '/keys/:id', 'warn', 'request aborted'],
      [
        exchange({ req: { id: 'ü\u2028"\u0000', method: 'PROPFIND', originalUrl: '/\u00e9t\u00e9\ud800' } }),
        '/whoami',
        'info',
        'request completed',
      ],
    ];
    for (const [{ req, res }, route, level, msg] of cases) {
      log(req, res, route, 1.23456);
      const ours = lines.at(-1)!;
      expect(timeless(ours)).toBe(timeless(pinoLine(req, res, route, 1.23456, level, msg)));
      expect(() => JSON.parse(ours)).not.toThrow();
    }
  });

  it('scrubs credentials from the URL and the logged headers, and never writes Authorization', () => {
    const lines: string[] = [];
    const log = createAccessLog(createLogger({ level: 'info' }, { write: (line: string) => void lines.push(line) }))!;
    const apiKey = `hp_${'K'.repeat(43)}`;
    const idToken = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln';
    const { req, res } = exchange({
      req: {
        originalUrl: `/d/x?k=${apiKey}`,
        headers: { 'user-agent': idToken, 'x-forwarded-for': apiKey, authorization: `Bearer ${apiKey}`, cookie: idToken },
      },
    });
    // Each line is scrubbed whatever the lines before it held (the log keeps the last value it scrubbed).
    const clean = exchange({ req: { originalUrl: '/d/x?k=1', headers: { 'user-agent': 'cli/1.0', 'x-forwarded-for': '10.0.0.1' } } });
    log(clean.req, clean.res, null, 1);
    log(req, res, null, 1);
    log(clean.req, clean.res, null, 1);
    expect(lines[1]).not.toContain('KKKKKKKKKK');
    expect(lines[1]).not.toContain('eyJ');
    expect(JSON.parse(lines[1]!).req.headers).toEqual({
      'user-agent': '[redacted]',
      'x-forwarded-for': '[redacted]',
      authorization: '[redacted]',
    });
    expect(JSON.parse(lines[1]!).req.url).toBe('/d/x?k=[redacted]');
    expect(JSON.parse(lines[2]!).req).toMatchObject({
      url: '/d/x?k=1',
      headers: { 'user-agent': 'cli/1.0', 'x-forwarded-for': '10.0.0.1' },
    });
  });

  it('writes a duration as the rounded number prints', () => {
    const printed = (ms: number): string => String(Math.round(ms * 1000) / 1000);
    fc.assert(
      fc.property(fc.oneof(fc.double({ min: 0, max: 1e7 }), fc.double()), (ms) => {
        expect(millisecondsJson(ms)).toBe(printed(ms));
      }),
    );
    for (const ms of [0, 0.0004, 0.0005, 1, 1.5, 2.999, 1.23456, 2 ** 31 / 1000, 1e9, -1]) expect(millisecondsJson(ms)).toBe(printed(ms));
  });

  it('is off above info', () => {
    expect(createAccessLog(createLogger({ level: 'warn' }, { write: () => undefined }))).toBeNull();
  });
});
