// Bun: the configuration arrives as environment variables; the port chosen is printed.
import { createConformanceApp, type ConformanceEnv } from '../conformance-app.js';

declare const Bun: {
  env: Record<string, string | undefined>;
  serve(options: { hostname: string; port: number; fetch: (request: Request) => Promise<Response> }): { port: number };
};

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: createConformanceApp(Bun.env as unknown as ConformanceEnv),
});
console.log(`listening on ${server.port}`);
