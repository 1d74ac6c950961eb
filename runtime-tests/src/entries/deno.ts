// Deno: the configuration arrives as environment variables; the port chosen is printed.
import { createConformanceApp, type ConformanceEnv } from '../conformance-app.js';

declare const Deno: {
  env: { toObject(): Record<string, string> };
  serve(
    options: { hostname: string; port: number; onListen(address: { port: number }): void },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
};

Deno.serve(
  { hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(`listening on ${port}`) },
  createConformanceApp(Deno.env.toObject() as unknown as ConformanceEnv),
);
