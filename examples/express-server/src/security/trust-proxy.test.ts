import { describe, expect, it } from 'vitest';
import { useTestServer } from '../testing/test-server.js';

const HOP_COUNT_WARNING = /TRUST_PROXY=1 is a hop count: it trusts X-Forwarded-For from whoever connects/;

/** The access line of the request answered with `requestId`. */
function accessLine(logs: readonly string[], requestId: string): { req: { remoteAddress: string; clientAddress: string } } {
  const line = logs.find((l) => l.includes('"request completed"') && l.includes(`"id":${JSON.stringify(requestId)}`));
  if (line === undefined) throw new Error(`no access line for ${requestId}`);
  return JSON.parse(line) as { req: { remoteAddress: string; clientAddress: string } };
}

describe('TRUST_PROXY as a hop count', () => {
  const server = useTestServer({ backend: 'pglite', env: { TRUST_PROXY: '1' } });

  it('warns once at start that it trusts whoever connects, and the access line names the address the limits used', async () => {
    const s = server();
    expect(s.logs.filter((line) => HOP_COUNT_WARNING.test(line))).toHaveLength(1);
    expect(s.logs.find((line) => HOP_COUNT_WARNING.test(line))).toMatch(/"level":40/);
    // A client connecting directly (no proxy in front) forges its address with X-Forwarded-For.
    const res = await s.fetch('/healthz', { headers: { 'x-forwarded-for': '198.51.100.7', 'x-request-id': 'forged-hop' } });
    expect(res.status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));
    const { req } = accessLine(s.logs, 'forged-hop');
    expect(req.remoteAddress).toBe('127.0.0.1');
    expect(req.clientAddress).toBe('198.51.100.7');
    await s.fetch('/healthz');
    expect(s.logs.filter((line) => HOP_COUNT_WARNING.test(line))).toHaveLength(1);
  });
});

describe('TRUST_PROXY as the proxy’s addresses', () => {
  const server = useTestServer({ backend: 'pglite', env: { TRUST_PROXY: '10.0.0.0/8' } });

  it('does not warn, and a direct client’s X-Forwarded-For is not its address', async () => {
    const s = server();
    expect(s.logs.some((line) => /hop count/.test(line))).toBe(false);
    await s.fetch('/healthz', { headers: { 'x-forwarded-for': '198.51.100.7', 'x-request-id': 'direct-client' } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(accessLine(s.logs, 'direct-client').req.clientAddress).toBe('127.0.0.1');
  });
});
