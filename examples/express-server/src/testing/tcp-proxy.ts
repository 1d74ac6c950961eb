import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy on loopback in front of a real server, that a test can cut (every connection
 * reset, new ones refused) and restore: a database that becomes unreachable and comes back.
 */
export class TcpProxy {
  readonly #sockets = new Set<Socket>();
  #server: Server | null = null;
  #port = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetHost, targetPort);
    await proxy.restore();
    return proxy;
  }

  get port(): number {
    return this.#port;
  }

  /** Starts (again) accepting connections, on the same port. */
  async restore(): Promise<void> {
    if (this.#server !== null) return;
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.#sockets.add(s);
        s.on('close', () => this.#sockets.delete(s));
        s.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, '127.0.0.1', () => resolve());
    });
    this.#port = (server.address() as AddressInfo).port;
    this.#server = server;
  }

  /** Resets every connection and refuses new ones. */
  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    for (const s of this.#sockets) s.destroy();
    if (server !== null) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async close(): Promise<void> {
    await this.cut();
  }
}
