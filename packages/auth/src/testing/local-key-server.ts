import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How `simulateOutage` makes a local key endpoint fail. */
export type OutageMode = 'down' | 'hang' | 'garbage' | 'error500';

/** What a {@link LocalKeyServer} serves. */
export interface LocalKeyServerOptions {
  /** Port on 127.0.0.1; 0 (the default) for a random free one. */
  readonly port?: number | undefined;
  /** The one path answered; any other is a 404. */
  readonly path: string;
  /** The JSON document, built afresh for every request (so key rotations show at once). */
  readonly document: () => unknown;
  /** Extra headers of a good answer (e.g. `Cache-Control`), asked for every request. */
  readonly headers?: () => Readonly<Record<string, string>>;
}

/**
 * A JSON key document served over plain HTTP on 127.0.0.1, that counts its fetches and can
 * simulate outages: the endpoint behind `LocalIdentityProvider` (a JWKS) and
 * `LocalSecretScanningKeys` (GitHub's key list). Internal to the testing helpers.
 */
export class LocalKeyServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Where the document is served. */
  readonly url: string;
  readonly #server: Server;
  #outage: OutageMode | null = null;
  #fetchCount = 0;

  private constructor(server: Server, options: LocalKeyServerOptions) {
    this.#server = server;
    this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    this.url = `${this.origin}${options.path}`;
    server.on('request', (req, res) => {
      if (req.url !== options.path) {
        res.writeHead(404).end();
        return;
      }
      this.#fetchCount++;
      switch (this.#outage) {
        case 'down':
          req.socket.destroy();
          return;
        case 'hang':
          return; // never answer; close() cuts the connection
        case 'garbage':
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys": [ <html>oops');
          return;
        case 'error500':
          res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
          return;
        default:
          res.writeHead(200, { 'content-type': 'application/json', ...options.headers?.() }).end(JSON.stringify(options.document()));
      }
    });
  }

  /** Starts serving on 127.0.0.1. */
  static async start(options: LocalKeyServerOptions): Promise<LocalKeyServer> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    return new LocalKeyServer(server, options);
  }

  /** Requests received on the document's path (failed ones included). */
  get fetchCount(): number {
    return this.#fetchCount;
  }

  /**
   * Makes the endpoint fail until called with `null`: `down` resets the connection, `hang` never
   * answers, `garbage` answers 200 with invalid JSON, `error500` answers 500.
   */
  simulateOutage(mode: OutageMode | null): void {
    this.#outage = mode;
  }

  /** Stops the server, cutting any hanging connection. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }
}
