import type { Server } from 'node:http';
import { clientSubjectOf } from '@drops/auth';

/** What {@link limitConnections} applies. */
export interface ConnectionLimits {
  /** Time to receive a request's headers, and the whole request (body included), in ms. */
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /** Open connections in all (`server.maxConnections`: past it a new one is closed at once). */
  readonly maxConnections: number;
  /** Open connections per client address (IPv6 per network of `ipv6PrefixLength` bits). */
  readonly maxConnectionsPerClient: number;
  readonly ipv6PrefixLength: number;
}

/**
 * Slow or idle clients cannot hold the server's descriptors (issue 21): a request must arrive
 * whole within seconds (Node answers 408 and closes otherwise), the server holds at most
 * `maxConnections`, and one client at most `maxConnectionsPerClient` of them, so a few hundred
 * connections trickling a byte at a time neither exhaust the process's descriptor limit nor shut
 * out other clients. Per socket address: behind a proxy that is the proxy, so size it for that.
 */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.maxConnections = limits.maxConnections;
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const client = clientSubjectOf(socket.remoteAddress ?? '', limits.ipv6PrefixLength);
    const count = (open.get(client) ?? 0) + 1;
    if (count > limits.maxConnectionsPerClient) {
      socket.destroy();
      return;
    }
    open.set(client, count);
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left === 0) open.delete(client);
      else open.set(client, left);
    });
  });
}
