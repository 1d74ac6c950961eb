/**
 * The HTTP contenders that are not the reference server, each run as its own process by
 * http.bench.mjs so every contender has the same process setup (one Node process, one core's worth
 * of event loop, load arriving over loopback from another process):
 *
 *   node bench/http-peers.mjs node-http            the HTTP floor: node:http, no framework, no auth
 *   node bench/http-peers.mjs express              a bare Express 5 route, no auth
 *   node bench/http-peers.mjs express-shaped       the same route, its server making requests and
 *                                                  responses with Express's per-request properties
 *                                                  declared up front, as the reference server does
 *                                                  (examples/express-server/src/http/shaped-messages.ts)
 *   node bench/http-peers.mjs oauth2-jwt-bearer    Express 5 + express-oauth2-jwt-bearer
 *   node bench/http-peers.mjs express-drops-auth   Express 5 + @drops/auth-express requireAuth(), and
 *                                                  nothing else: the library's cost without the
 *                                                  reference server's other middleware
 *   node bench/http-peers.mjs fastify              a bare Fastify 5 route, no auth
 *   node bench/http-peers.mjs fastify-drops-auth   Fastify 5 + @drops/auth-fastify requireAuth()
 *   node bench/http-peers.mjs koa                  a bare Koa 3 + @koa/router route, no auth
 *   node bench/http-peers.mjs koa-drops-auth       the same + @drops/auth-koa requireAuth()
 *   node bench/http-peers.mjs hono                 a bare Hono route on @hono/node-server, no auth
 *   node bench/http-peers.mjs hono-drops-auth      the same + @drops/auth-hono requireAuth()
 *
 * Every one answers `GET /whoami` with the same JSON as the reference server (and the same
 * `cache-control: no-store`). Listens on HOST:PORT (default 127.0.0.1, a free port) and reports
 * `{ url }` over IPC when started from http.bench.mjs, or prints it otherwise. The bearer and
 * drops variants read AUTH_ISSUER, AUTH_AUDIENCE and AUTH_JWKS_URL; the drops variants keep keys
 * in the memory store (KEY_STORE=memory), PostgreSQL (DATABASE_URL) or in-memory PGlite
 * (otherwise), mint one and report it as `{ url, apiKey }`.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import Fastify from 'fastify';
import Koa from 'koa';
import Router from '@koa/router';
import { Hono } from 'hono';
import { createAdaptorServer } from '@hono/node-server';
import { auth } from 'express-oauth2-jwt-bearer';
import { createAuthenticator, createIdTokenVerifier, generateApiKey, MemoryKeyStore } from '@drops/auth';
import { openPGliteKeyStore, openPostgresKeyStore } from '@drops/auth-postgres';
import { dropsAuth, principalOf } from '../packages/express/dist/index.js';
import { dropsAuth as fastifyDropsAuth } from '@drops/auth-fastify';
import { dropsAuth as koaDropsAuth } from '@drops/auth-koa';
import { dropsAuth as honoDropsAuth } from '@drops/auth-hono';

const BODY = { accountId: 'acct_bench', credential: 'api_key', keyId: 'f'.repeat(64) };

function nodeHttp() {
  return createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/whoami') {
      const body = JSON.stringify(BODY);
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        'cache-control': 'no-store',
      });
      res.end(body);
    } else {
      res.writeHead(404).end();
    }
  });
}

function bareExpress() {
  const app = express();
  app.disable('x-powered-by');
  app.get('/whoami', (_req, res) => {
    res.set('cache-control', 'no-store').json(BODY);
  });
  return createServer(app);
}

/**
 * Express replaces each request's and response's prototype with the app's own, and on that kind
 * of object V8 adds a property slowly (bench/METHOD.md). These classes declare what Express and
 * its router set on every request, so that each is a plain store: the like-for-like baseline for
 * the reference server, whose server does the same for its own properties too.
 */
class ShapedRequest extends IncomingMessage {
  constructor(socket) {
    super(socket);
    this.res = undefined;
    this.next = undefined;
    this.baseUrl = undefined;
    this.originalUrl = undefined;
    this.params = undefined;
    this._parsedUrl = undefined;
    this[Symbol.for('router.tracing.publishedErrors')] = undefined;
  }
}

class ShapedResponse extends ServerResponse {
  constructor(...args) {
    super(...args);
    this.locals = undefined;
    this.statusCode = 200;
    this.statusMessage = undefined;
  }
}

function shapedExpress() {
  const app = express();
  app.disable('x-powered-by');
  app.get('/whoami', (_req, res) => {
    res.set('cache-control', 'no-store').json(BODY);
  });
  return createServer({ IncomingMessage: ShapedRequest, ServerResponse: ShapedResponse }, app);
}

function identityProvider() {
  const { AUTH_ISSUER: issuer, AUTH_AUDIENCE: audience, AUTH_JWKS_URL: jwksUri } = process.env;
  if (!issuer || !audience || !jwksUri) throw new Error('set AUTH_ISSUER, AUTH_AUDIENCE and AUTH_JWKS_URL');
  return { issuer, audience, jwksUri };
}

function oauth2JwtBearer() {
  const { issuer, audience, jwksUri } = identityProvider();
  const app = express();
  app.disable('x-powered-by');
  app.get('/whoami', auth({ issuer, audience, jwksUri, tokenSigningAlg: 'RS256' }), (req, res) => {
    res.set('cache-control', 'no-store').json({ accountId: req.auth.payload.sub, credential: 'id_token' });
  });
  return createServer(app);
}

const extra = {};

/**
 * An authenticator on the memory store (KEY_STORE=memory), PostgreSQL (DATABASE_URL) or in-memory
 * PGlite, with one key minted into `extra.apiKey`.
 */
async function benchAuthenticator() {
  const { issuer, audience, jwksUri } = identityProvider();
  const keyStore =
    process.env.KEY_STORE === 'memory'
      ? new MemoryKeyStore()
      : process.env.DATABASE_URL
        ? await openPostgresKeyStore({ connectionString: process.env.DATABASE_URL })
        : await openPGliteKeyStore({ dataDir: ':memory:' });
  const key = generateApiKey();
  await keyStore.create({
    id: key.id,
    accountId: 'acct_bench',
    prefix: key.prefix,
    name: null,
    createdAt: new Date(),
    provenance: null,
    expiresAt: null,
  });
  extra.apiKey = key.secret;
  const idTokenVerifier = createIdTokenVerifier({ issuer, audience, jwksUrl: jwksUri });
  await idTokenVerifier.warmUp();
  return createAuthenticator({ keyStore, idTokenVerifier });
}

/** The body of `GET /whoami` for a principal, as the reference server answers it. */
function whoamiBody(principal) {
  return principal.credential === 'api_key'
    ? { accountId: principal.accountId, credential: 'api_key', keyId: principal.keyId }
    : { accountId: principal.accountId, credential: 'id_token' };
}

async function expressDropsAuth() {
  const drops = dropsAuth({ authenticator: await benchAuthenticator() });
  const app = express();
  app.disable('x-powered-by');
  app.get('/whoami', drops.requireAuth(), (req, res) => {
    res.set('cache-control', 'no-store').json(whoamiBody(principalOf(req)));
  });
  app.use(drops.errorHandler());
  return createServer(app);
}

/** A Fastify app on its own node:http server (Fastify's `serverFactory`), listened on like the others. */
async function fastifyServer(register) {
  let server;
  const app = Fastify({
    serverFactory: (handler) => {
      server = createServer(handler);
      return server;
    },
  });
  await register(app);
  await app.ready();
  return server;
}

function bareFastify() {
  return fastifyServer((app) => {
    app.get('/whoami', (_request, reply) => reply.header('cache-control', 'no-store').send(BODY));
  });
}

async function fastifyWithDropsAuth() {
  const drops = fastifyDropsAuth({ authenticator: await benchAuthenticator() });
  return fastifyServer((app) => {
    app.setErrorHandler(drops.errorHandler);
    app.get('/whoami', { onRequest: drops.requireAuth() }, (request, reply) =>
      reply.header('cache-control', 'no-store').send(whoamiBody(request.auth)),
    );
  });
}

/** A Koa app with one `GET /whoami` route behind `middleware` (none: the bare route). */
function koaServer(middleware, body) {
  const router = new Router();
  router.get('/whoami', ...middleware, (ctx) => {
    ctx.set('cache-control', 'no-store');
    ctx.body = body(ctx);
  });
  const app = new Koa();
  app.use(router.routes());
  return createServer(app.callback());
}

function bareKoa() {
  return koaServer([], () => BODY);
}

async function koaWithDropsAuth() {
  const drops = koaDropsAuth({ authenticator: await benchAuthenticator() });
  return koaServer([drops.requireAuth()], (ctx) => whoamiBody(ctx.state.auth));
}

/** A Hono app on @hono/node-server with one `GET /whoami` route behind `middleware`. */
function honoServer(middleware, body) {
  const app = new Hono();
  app.get('/whoami', ...middleware, (c) => c.json(body(c), 200, { 'cache-control': 'no-store' }));
  return createAdaptorServer({ fetch: app.fetch });
}

function bareHono() {
  return honoServer([], () => BODY);
}

async function honoWithDropsAuth() {
  const drops = honoDropsAuth({ authenticator: await benchAuthenticator() });
  return honoServer([drops.requireAuth()], (c) => whoamiBody(c.var.auth));
}

const kinds = {
  'node-http': nodeHttp,
  express: bareExpress,
  'express-shaped': shapedExpress,
  'oauth2-jwt-bearer': oauth2JwtBearer,
  'express-drops-auth': expressDropsAuth,
  fastify: bareFastify,
  'fastify-drops-auth': fastifyWithDropsAuth,
  koa: bareKoa,
  'koa-drops-auth': koaWithDropsAuth,
  hono: bareHono,
  'hono-drops-auth': honoWithDropsAuth,
};
const make = kinds[process.argv[2]];
if (make === undefined) {
  process.stderr.write(`usage: node bench/http-peers.mjs ${Object.keys(kinds).join('|')}\n`);
  process.exit(2);
}
const server = await make();
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const url = `http://127.0.0.1:${server.address().port}`;
  if (process.send) process.send({ url, ...extra });
  else process.stdout.write(`${url} ${JSON.stringify(extra)}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
