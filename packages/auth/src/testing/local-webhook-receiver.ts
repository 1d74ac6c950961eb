import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a {@link LocalWebhookReceiver} got, as it came (and the status it answered). */
export interface ReceivedWebhook {
  readonly method: string;
  readonly path: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The status answered; `0` for a request held without an answer. */
  readonly status: number;
}

/** Options of {@link LocalWebhookReceiver.start}. */
export interface LocalWebhookReceiverOptions {
  /**
   * The status (and headers) of each answer, asked with the request's 0-based index. Default: 204
   * for every request. A 3xx with a `location` header tests that senders follow no redirect;
   * `null` holds the request and never answers (an endpoint that stalls its senders until they give
   * up; `close()` cuts it).
   */
  readonly answer?: (index: number, request: { readonly path: string }) => { status: number; headers?: Record<string, string> } | null;
}

/**
 * A webhook endpoint on 127.0.0.1 over plain HTTP that records every request (headers and body,
 * byte for byte) for tests and local development; verify what it got with the `standardwebhooks`
 * package. Answers 204 unless told otherwise (e.g. to fail the first attempts).
 *
 * @example
 * ```ts
 * const receiver = await LocalWebhookReceiver.start({ answer: (i) => ({ status: i < 2 ? 500 : 204 }) });
 * // PUT /keys/webhook {"url": receiver.url} on a development server, mint a key, then:
 * const [first] = receiver.received;
 * await receiver.close();
 * ```
 */
export class LocalWebhookReceiver {
  /** `http://127.0.0.1:<port>/hooks`. */
  readonly url: string;
  readonly #server: Server;
  readonly #received: ReceivedWebhook[] = [];

  private constructor(server: Server, options: LocalWebhookReceiverOptions) {
    this.#server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '/';
        const answer = options.answer === undefined ? { status: 204 } : options.answer(this.#received.length, { path });
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : (value ?? '');
        this.#received.push({
          method: req.method ?? '',
          path,
          headers,
          body: Buffer.concat(chunks).toString('utf8'),
          status: answer?.status ?? 0,
        });
        if (answer !== null) res.writeHead(answer.status, answer.headers).end();
      });
    });
  }

  /** Starts a receiver on a free port of 127.0.0.1. */
  static async start(options: LocalWebhookReceiverOptions = {}): Promise<LocalWebhookReceiver> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return new LocalWebhookReceiver(server, options);
  }

  /** Every request so far, in arrival order. */
  get received(): readonly ReceivedWebhook[] {
    return this.#received;
  }

  /** The requests answered with a 2xx: the deliveries. */
  get delivered(): readonly ReceivedWebhook[] {
    return this.#received.filter((r) => r.status >= 200 && r.status < 300);
  }

  /** Stops listening and cuts open connections. */
  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
