import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { killChildServers, listening, spawnMain } from '../testing/child-server.js';

/** A connection that sends `head`, then (the test's loop) one byte per tick while the server keeps it open. */
interface Trickler {
  readonly socket: Socket;
  /** Bytes of `trickle` sent before the server closed the connection (all of them: never closed). */
  sent: number;
  answer: string;
}

function trickler(port: number, localAddress: string, head: string): Trickler {
  const socket = connect({ host: '127.0.0.1', port, localAddress });
  const t: Trickler = { socket, sent: 0, answer: '' };
  socket.setEncoding('utf8').on('data', (chunk: string) => (t.answer += chunk));
  socket.on('error', () => {});
  socket.once('connect', () => socket.write(head));
  return t;
}

const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// Issue 21, item 3: about 1,100 connections sending a byte every 10 s made a server with a
// 1,024-descriptor limit reset every new client, and a body trickled a byte every 2 s was still
// read after 45 s. Here 300 connections from ten addresses trickle header bytes into a server
// limited to 256 descriptors, and one more trickles a body, while a legitimate client works.
describe('slow clients, under a descriptor limit of 256', () => {
  afterAll(async () => {
    await killChildServers();
  }, 30_000);

  it('keeps serving legitimate requests, and cuts trickled headers and bodies within the configured timeouts', async () => {
    const child = spawnMain(
      {
        PORT: '0',
        METRICS_PORT: 'off',
        DATA_DIR: ':memory:',
        LOG_FORMAT: 'json',
        HEADERS_TIMEOUT_SECONDS: '2',
        REQUEST_TIMEOUT_SECONDS: '3',
        MAX_CONNECTIONS: '200',
        MAX_CONNECTIONS_PER_CLIENT: '10',
      },
      { maxOpenFiles: 256 },
    );
    const { url, pid } = await listening(child);
    expect(pid).toBe(child.pid);
    const port = Number(new URL(url).port);

    const attackers: Trickler[] = [];
    for (let i = 0; i < 300; i++) {
      attackers.push(trickler(port, `127.0.0.${2 + (i % 10)}`, 'POST /secret-scanning/github HTTP/1.1\r\nHost: x\r\n'));
    }
    const body = trickler(
      port,
      '127.0.0.50',
      'POST /deploy HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n',
    );

    // 24 ticks of 400 ms (about ten seconds): every trickler sends a byte, the client makes a request.
    const answers: number[] = [];
    const ROUNDS = 24;
    try {
      for (let round = 0; round < ROUNDS; round++) {
        for (const t of [...attackers, body]) {
          if (t.socket.writable && !t.socket.destroyed && t.socket.readyState === 'open') {
            t.socket.write(t === body ? 'x' : 'a');
            t.sent++;
          }
        }
        const res = await fetch(`${url}/dev/token`, { method: 'POST', body: '{"name":"alice"}', signal: AbortSignal.timeout(5_000) }).then(
          (r) => r.status,
          () => 0,
        );
        answers.push(res);
        await tick(400);
      }

      expect(answers).toEqual(new Array<number>(ROUNDS).fill(200));
      // Every trickled request was cut before its trickle ended: headers within 2 s, the body within 3 s.
      expect(attackers.filter((t) => t.sent >= ROUNDS)).toEqual([]);
      expect(body.sent).toBeLessThan(ROUNDS);
      expect(body.answer === '' || body.answer.startsWith('HTTP/1.1 408')).toBe(true);
    } finally {
      for (const t of [...attackers, body]) t.socket.destroy();
    }
    child.signal('SIGTERM');
    expect(await child.exited).toBe(0);
  }, 120_000);
});
