import { startTcpProxy, type TcpProxy } from '@drops/auth/testing';

/**
 * A loopback TCP proxy in front of the database at `databaseUrl` (for a test to cut, stall and
 * restore), and the database's URL through it.
 */
export async function proxyInFront(databaseUrl: string): Promise<{ proxy: TcpProxy; url: string }> {
  const url = new URL(databaseUrl);
  const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
  url.port = String(proxy.port);
  return { proxy, url: url.toString() };
}
