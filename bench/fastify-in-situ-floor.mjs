/**
 * What an API key check can cost inside a Fastify request, at the least: one Fastify 5 process
 * (memory store, one key) serving the same answer four ways, measured in interleaved rounds so
 * that every route runs on the same compiled code and the same machine state:
 *
 *   /public   the bare route
 *   /passed   behind an `onRequest` hook that only calls `done()` (what any hook costs)
 *   /floor    behind a hook that does the least an API key check can: SHA-256 of the secret
 *             (`crypto.hash`, hex) and a `Map.get`, then sets `request.auth`
 *   /whoami   behind `requireAuth()` of @drops/auth-fastify
 *
 * Server pinned to one core and wrk (32 connections) to the other (cpu-affinity.mjs), a 5 s
 * warm-up of each route, then CYCLES (default 10) cycles of one 2 s round per route, the order
 * reversed every other cycle. Prints each route's median CPU per request (schedstat,
 * process-cpu-time.mjs) and its ratio to /public. Needs wrk. bench/METHOD.md, "Each adapter's
 * `requireAuth()` against its own bare route", says what it showed.
 *
 *   pnpm build && node bench/fastify-in-situ-floor.mjs
 */
import { fork } from 'node:child_process';
import { hash } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { splitCores } from './cpu-affinity.mjs';
import { quantile } from './measure.mjs';
import { memoryStoreWithKeys } from './memory-store-keys.mjs';
import { measureWithWrk } from './wrk.mjs';

const ROUTES = ['/public', '/passed', '/floor', '/whoami'];

/** The server: started by the driver below as a child (`serve`), reports `{ url, apiKey }` over IPC. */
async function serve() {
  const { createAuthenticator } = await import('@drops/auth');
  const { dropsAuth } = await import('@drops/auth-fastify');
  const { default: Fastify } = await import('fastify');
  const { store, secrets, ids } = await memoryStoreWithKeys(1);
  const [[secret], [id]] = [secrets, ids];
  const drops = dropsAuth({ authenticator: createAuthenticator({ keyStore: store }) });
  const principals = new Map([[id, { accountId: 'acct_0', credential: 'api_key', keyId: id }]]);
  const body = (principal) => ({ accountId: principal.accountId, credential: 'api_key', keyId: principal.keyId });
  const answer = (request, reply) => reply.header('cache-control', 'no-store').send(body(request.auth));
  const floor = (request, reply, done) => {
    const principal = principals.get(hash('sha256', request.headers.authorization.slice('Bearer '.length), 'hex'));
    if (principal === undefined) return reply.code(401).send({});
    request.auth = principal;
    done();
  };
  const app = Fastify();
  app.decorateRequest('auth', null);
  app.setErrorHandler(drops.errorHandler);
  app.get('/public', (_request, reply) => reply.header('cache-control', 'no-store').send(body(principals.get(id))));
  app.get('/passed', { onRequest: (_request, _reply, done) => done() }, (_request, reply) =>
    reply.header('cache-control', 'no-store').send(body(principals.get(id))),
  );
  app.get('/floor', { onRequest: floor }, answer);
  app.get('/whoami', { onRequest: drops.requireAuth() }, answer);
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.send({ url: `http://127.0.0.1:${app.server.address().port}`, apiKey: secret });
}

async function drive() {
  const cores = splitCores();
  const child = fork(fileURLToPath(import.meta.url), ['serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const [{ url, apiKey }] = await once(child, 'message');
    cores.pinServer(child.pid);
    const authorization = `Bearer ${apiKey}`;
    const expected = await (await fetch(`${url}/public`)).text();
    for (const route of ROUTES) {
      const res = await fetch(url + route, { headers: { authorization } });
      const text = await res.text();
      if (res.status !== 200 || text !== expected) throw new Error(`${route} answered ${res.status} ${text}`);
    }
    // wrk runs on the driver's core (splitCores), and every answer must be `expected`.
    const round = async (route, seconds) =>
      (await measureWithWrk(child.pid, route, { url: url + route, connections: 32, seconds, authorization, expectBody: expected })).cpu;
    for (const route of ROUTES) await round(route, 5);
    const perRoute = Object.fromEntries(ROUTES.map((route) => [route, []]));
    const cycles = Number(process.env.CYCLES ?? 10);
    for (let i = 0; i < cycles; i++)
      for (const route of i % 2 === 0 ? ROUTES : [...ROUTES].reverse()) perRoute[route].push(await round(route, 2));
    const median = (values) => quantile(values, 0.5);
    const bare = median(perRoute['/public']);
    for (const route of ROUTES) {
      const us = median(perRoute[route]);
      console.log(
        `${route.padEnd(8)} ${us.toFixed(1)} µs CPU/request, ${(bare / us).toFixed(2)}× /public (rounds: ${perRoute[route].map((x) => x.toFixed(1)).join(' ')})`,
      );
    }
  } finally {
    child.kill();
    cores.restore();
  }
}

if (process.argv[2] === 'serve') await serve();
else await drive();
