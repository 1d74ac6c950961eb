import net from 'node:net';

/**
 * A loopback TCP proxy in front of a real server (a database, an identity provider) that a test
 * cuts, black-holes and restores, to play an outage or a partition without touching the server
 * other tests use. Started by {@link startTcpProxy}.
 *
 * @example
 * ```ts
 * const proxy: TcpProxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
 * proxy.stall(); // bytes vanish, nothing closes
 * proxy.restore();
 * await proxy.close();
 * ```
 */
export interface TcpProxy {
  /** The port it listens on (127.0.0.1). */
  readonly port: number;
  /** Destroys every open connection and refuses new ones (accepts, then closes at once). */
  cut(): void;
  /**
   * Keeps every connection open but forwards nothing more, either way, and holds new ones the same:
   * a database that accepts connections and never answers (a network black hole).
   */
  stall(): void;
  /** Accepts and forwards new connections again (stalled ones are dropped). */
  restore(): void;
  /** Open client connections right now. */
  readonly openConnections: number;
  close(): Promise<void>;
}

/** Options of {@link startTcpProxy}. */
export interface TcpProxyOptions {
  /**
   * Called once per connection; the filter it returns gets every chunk the target sends and answers
   * what to forward to the client instead (an empty buffer: nothing). For a test that rewrites or
   * drops protocol messages, e.g. PostgreSQL notifications. Default: everything is forwarded as is.
   */
  readonly filterFromTarget?: () => (chunk: Buffer) => Buffer;
}

/**
 * Starts a proxy on a random loopback port forwarding to `target`; it keeps its port across
 * {@link TcpProxy.cut} and {@link TcpProxy.restore}.
 *
 * @example
 * ```ts
 * const proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
 * const url = `postgres://postgres@127.0.0.1:${proxy.port}/test`;
 * proxy.cut(); // every connection reset, new ones refused
 * ```
 */
export async function startTcpProxy(target: { host: string; port: number }, options: TcpProxyOptions = {}): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let refusing = false;
  let stalled = false;
  const held = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    if (stalled) {
      held.add(client);
      client.on('error', () => held.delete(client)).on('close', () => held.delete(client));
      return;
    }
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    const filter = options.filterFromTarget?.();
    if (filter === undefined) upstream.pipe(client);
    else
      upstream.on('data', (chunk: Buffer) => {
        const out = filter(chunk);
        if (out.length > 0) client.write(out);
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address() as net.AddressInfo;
  return {
    port: address.port,
    cut(): void {
      refusing = true;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    stall(): void {
      stalled = true;
      for (const s of sockets) {
        s.unpipe();
        s.pause();
        held.add(s);
      }
    },
    restore(): void {
      refusing = false;
      stalled = false;
      for (const s of held) s.destroy();
      held.clear();
    },
    get openConnections(): number {
      return sockets.size / 2;
    },
    close(): Promise<void> {
      refusing = true;
      for (const s of [...sockets, ...held]) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
