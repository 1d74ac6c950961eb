import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { useTestServer } from '../testing/test-server.js';

const LIMITS = {
  REVOKE_BY_VALUE_LIMIT: '2',
  REVOKE_BY_VALUE_WINDOW_SECONDS: '600',
  ANON_DEPLOY_LIMIT: '2',
  ANON_DEPLOY_WINDOW_SECONDS: '600',
  SECRET_SCANNING_LIMIT: '2',
  SECRET_SCANNING_WINDOW_SECONDS: '600',
};

type Call = (from: string) => Promise<number>;

// Issue 21, item 5: revoke by value counted each IPv6 address as its own client (seven addresses
// of one /64 got seven 202s past the limit), and with TRUST_PROXY=true any client picked its
// address through X-Forwarded-For. The test server's client is its trusted loopback proxy.
describe('rate limits per client address', () => {
  const server = useTestServer({ backend: 'pglite', idp: 'dev', github: true, env: { ...LIMITS, TRUST_PROXY: 'loopback' } });
  const routes: Record<string, Call> = {
    'POST /credentials/revoke': async (from) =>
      (await server().fetch('/credentials/revoke', { method: 'POST', body: '{"credentials":["x"]}', headers: { 'x-forwarded-for': from } }))
        .status,
    'anonymous POST /deploy': async (from) =>
      (
        await server().fetch('/deploy', {
          method: 'POST',
          body: 'hello',
          headers: { 'content-type': 'text/plain', 'x-forwarded-for': from },
        })
      ).status,
    'POST /secret-scanning/github': async (from) =>
      (await server().fetch('/secret-scanning/github', { method: 'POST', body: '[]', headers: { 'x-forwarded-for': from } })).status,
  };

  it.each(Object.keys(routes))('%s: seven addresses of one /64 share one bucket; another /64 has its own', async (route) => {
    const call = routes[route]!;
    const net = route.length.toString(16); // a /64 of its own per route
    const statuses: number[] = [];
    for (let i = 1; i <= 7; i++) statuses.push(await call(`2001:db8:${net}:1::${i.toString(16)}`));
    expect(statuses.slice(2)).toEqual([429, 429, 429, 429, 429]);
    expect(statuses.slice(0, 2)).not.toContain(429);
    expect(await call(`2001:db8:${net}:2::1`)).not.toBe(429);
  });
});

describe('TRUST_PROXY=1 (one proxy in front)', () => {
  const server = useTestServer({ backend: 'pglite', idp: 'dev', env: { ...LIMITS, TRUST_PROXY: '1' } });

  it('keys the limit by the address the proxy saw, whatever the client prepends to X-Forwarded-For', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) {
      // The client sent "X-Forwarded-For: 198.51.100.<i>"; the proxy appended the address it saw.
      const res = await server().fetch('/credentials/revoke', {
        method: 'POST',
        body: '{"credentials":["x"]}',
        headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.9` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([202, 202, 429, 429, 429]);
  });
});

describe('TRUST_PROXY', () => {
  it('takes a hop count or proxy addresses and subnets, and refuses "true" (any X-Forwarded-For)', () => {
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, ::1,loopback, 192.168.0.0/255.255.0.0' }).trustProxy).toBe(
      '10.0.0.0/8, ::1, loopback, 192.168.0.0/255.255.0.0',
    );
    expect(loadConfig({}).trustProxy).toBe(false);
    for (const value of ['true', 'yes', '10.0.0.0/33', 'proxy.example.com', '*']) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
    }
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/"true" is refused/);
  });
});
