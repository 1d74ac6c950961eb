import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../testing/test-server.js';

/** Sends `head` (the request line and headers) and no body at all; resolves with what the server answers first. */
function answerToHeadersAlone(url: string, head: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(head));
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      answer += chunk;
      if (answer.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
}

// Issue 21, item 3: the routes that take no credential look at their cheap headers before they
// read a body. An unsigned alert was read whole (up to 1 MiB, as slowly as it came) before its
// missing signature was noticed, and nothing limited how often one client sent one.
describe('the leaked-key routes check cheap headers before reading a body', () => {
  const server = useTestServer({
    backend: 'pglite',
    idp: 'dev',
    github: true,
    env: { SECRET_SCANNING_LIMIT: '3', SECRET_SCANNING_WINDOW_SECONDS: '600' },
  });

  it('answers an alert without signature headers with the 401 before its body is sent', async () => {
    const answer = await answerToHeadersAlone(
      server().url,
      'POST /secret-scanning/github HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
  });

  it('answers a body declared over the limit with the 413 before it is sent', async () => {
    const answer = await answerToHeadersAlone(
      server().url,
      'POST /credentials/revoke HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('limits alerts per client address: 429 with Retry-After, signed or not', async () => {
    const s = server();
    // One of the three was spent by the first test of this file.
    expect((await s.fetch('/secret-scanning/github', { method: 'POST', body: '[]' })).status).toBe(401);
    expect((await s.fetch('/secret-scanning/github', { method: 'POST', body: '[]' })).status).toBe(401);
    const limited = await s.fetch('/secret-scanning/github', { method: 'POST', body: '[]', headers: s.github!.signedHeaders('[]') });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
