import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { clientSubjectOf } from '@drops/auth';

/** What {@link limitConnections} applies. */
export interface ConnectionLimits {
  /** Time to receive a request's headers, and the whole request (body included), in ms. */
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /** Open connections in all: past it a new one is refused (a 503, then closed). */
  readonly maxConnections: number;
  /** Open connections per client address (IPv6 per network of `ipv6PrefixLength` bits). */
  readonly maxConnectionsPerClient: number;
  readonly ipv6PrefixLength: number;
}

const REFUSAL_BODY = '{"error":"too many connections: try again later"}';

/** The whole answer to a connection past a cap, written before any of its request is read. */
const REFUSAL = Buffer.from(
  'HTTP/1.1 503 Service Unavailable\r\n' +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(REFUSAL_BODY)}\r\n` +
    'Retry-After: 1\r\n' +
    'Cache-Control: no-store\r\n' +
    'X-Content-Type-Options: nosniff\r\n' +
    'Connection: close\r\n' +
    '\r\n' +
    REFUSAL_BODY,
);

/**
 * How long a refused connection is kept, reading and discarding, for the client to read the 503
 * and close: closing a socket with unread bytes makes the kernel send a reset, which can reach the
 * client before it reads the answer (`ECONNRESET`, where it should see "slow down").
 */
const LINGER_MS = 1_000;

/**
 * Slow or idle clients cannot hold the server's descriptors (issue 21): a request must arrive
 * whole within seconds (Node answers 408 and closes otherwise), the server holds at most
 * `maxConnections`, and one client at most `maxConnectionsPerClient` of them, so a few hundred
 * connections trickling a byte at a time neither exhaust the process's descriptor limit nor shut
 * out other clients. Per socket address: behind a proxy that is the proxy, so size it for that.
 *
 * A connection past either cap is answered `503` with `Retry-After` at once, before Node's HTTP
 * parser sees it (nothing of its request is read or waited for), and closed: a client behind a
 * busy NAT reads "try again", never a bare reset. It holds no slot of either cap, and lingers at
 * most {@link LINGER_MS}, at most `maxConnections / 4` of them at once (past that, closed at once).
 */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  const open = new Map<string, number>();
  let total = 0;
  let lingering = 0;
  const maxLingering = Math.max(1, Math.floor(limits.maxConnections / 4));

  const refuse = (socket: Socket): void => {
    socket.on('error', () => {});
    if (lingering >= maxLingering) {
      socket.end(REFUSAL, () => socket.destroy());
      return;
    }
    lingering++;
    socket.end(REFUSAL);
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once('close', () => {
      lingering--;
      clearTimeout(timer);
    });
    socket.on('end', () => socket.destroy());
    socket.resume();
  };

  // Node's own listener (the HTTP parser) runs only for the connections admitted here.
  const serve = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const client = clientSubjectOf(socket.remoteAddress ?? '', limits.ipv6PrefixLength);
    const count = (open.get(client) ?? 0) + 1;
    if (count > limits.maxConnectionsPerClient || total >= limits.maxConnections) {
      refuse(socket);
      return;
    }
    open.set(client, count);
    total++;
    socket.once('close', () => {
      total--;
      const left = (open.get(client) ?? 1) - 1;
      if (left === 0) open.delete(client);
      else open.set(client, left);
    });
    for (const listener of serve) listener.call(server, socket);
  });
}
