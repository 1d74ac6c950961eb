import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestHandler } from 'express';
import type { ServerMetrics } from './server-metrics.js';

/** The metrics listener: `GET /metrics` and nothing else, on its own address. */
export interface MetricsListener {
  /** `http://host:port/metrics`, with the port actually bound. */
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` on `host:port` (by default loopback, apart from the public listener: only
 * what runs beside the server, or what the network lets in, can read it). Any other request is a
 * bare 404.
 */
export async function startMetricsListener(options: { host: string; port: number }, metrics: ServerMetrics): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    const path = req.url?.split('?', 1)[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    metrics.render().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}/metrics`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * `GET /metrics` on the public listener for a caller with `Authorization: Bearer <METRICS_TOKEN>`
 * (compared in constant time). Anyone else falls through to the app's 404, the same answer as any
 * path that does not exist: a caller without the token cannot tell the metrics are there.
 */
export function metricsRoute(metrics: ServerMetrics, token: string): RequestHandler {
  const expected = digest(`Bearer ${token}`);
  return (req, res, next) => {
    const given = req.headers.authorization;
    if (typeof given !== 'string' || !timingSafeEqual(digest(given), expected)) {
      next();
      return;
    }
    metrics.render().then((text) => {
      res.set({ 'content-type': metrics.contentType, 'cache-control': 'no-store' }).send(text);
    }, next);
  };
}
