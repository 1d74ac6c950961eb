import { startTcpProxy } from '@drops/auth/testing';

/** A PostgreSQL proxy whose connections still run every statement but can stop delivering notifications. */
export interface NotificationDroppingProxy {
  readonly port: number;
  /** From now on, every notification (a `NotificationResponse` message) from the server is dropped. */
  deafen(): void;
  /** Notifications pass again. */
  hear(): void;
  /** Notifications dropped so far. */
  readonly dropped: number;
  /** `url` with its port replaced by the proxy's. */
  through(url: string): string;
  close(): Promise<void>;
}

/** `NotificationResponse`: the one server message dropped. */
const NOTIFICATION = 0x41; // 'A'

/**
 * Starts a proxy in front of the PostgreSQL on 127.0.0.1:5432 that reads the server's messages
 * (type byte, 32-bit length) and, while deafened, drops notifications and forwards the rest: a
 * listening session whose queries and lease renewals work but which hears nothing, as behind a
 * pooler or proxy that loses them. Clients must not ask for TLS (the tests' URLs do not).
 */
export async function startNotificationDroppingProxy(): Promise<NotificationDroppingProxy> {
  let deaf = false;
  let dropped = 0;
  /** Per connection: forwards whole messages, keeping a partial one until the rest arrives. */
  const messageFilter = (): ((chunk: Buffer) => Buffer) => {
    let pending: Buffer = Buffer.alloc(0);
    return (chunk) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      let start = 0;
      const out: Buffer[] = [];
      while (pending.length - start >= 5) {
        const end = start + 1 + pending.readInt32BE(start + 1);
        if (end > pending.length) break;
        if (deaf && pending[start] === NOTIFICATION) dropped++;
        else out.push(pending.subarray(start, end));
        start = end;
      }
      pending = pending.subarray(start);
      return Buffer.concat(out);
    };
  };
  const proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 }, { filterFromTarget: messageFilter });
  return {
    port: proxy.port,
    deafen() {
      deaf = true;
    },
    hear() {
      deaf = false;
    },
    get dropped() {
      return dropped;
    },
    through(url) {
      const proxied = new URL(url);
      proxied.port = String(proxy.port);
      return proxied.toString();
    },
    close: () => proxy.close(),
  };
}
