/**
 * The HTTP contenders that are not the reference server, each run as its own process by
 * http.bench.mjs and adapters.bench.mjs so every contender has the same process setup (one Node
 * process, one core's worth of event loop, load arriving over loopback from another process):
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
 *   node bench/http-peers.mjs nestjs               a bare NestJS controller route on Nest's default
 *                                                  platform (platform-express), no auth
 *   node bench/http-peers.mjs nestjs-drops-auth    the same + DropsAuthModule and DropsAuthGuard
 *                                                  (@drops/auth-nestjs), the principal by @Principal()
 *
 * Every one answers `GET /whoami` with the same JSON as the reference server (and the same
 * `cache-control: no-store`). The drops variants also answer `GET /public`, a route of the same
 * app without drops auth, with the bare route's answer: what an app's routes cost without
 * `requireAuth()`, in the same process (adapters.bench.mjs pairs each variant with it); and
 * `GET /passed`, the same answer behind a middleware that only goes on (Fastify: a hook calling
 * `done()`; NestJS: a guard answering `true`): what the framework charges for any middleware.
 * Both are declared first, so a request for `/whoami` passes over them where a router tries routes
 * in order. Listens on HOST:PORT (default 127.0.0.1, a free port) and reports
 * `{ url }` over IPC when started from peer-servers.mjs, or prints it otherwise. The bearer and
 * drops variants read AUTH_ISSUER, AUTH_AUDIENCE and AUTH_JWKS_URL; the drops variants keep keys
 * in the memory store (KEY_STORE=memory), PostgreSQL (DATABASE_URL) or PGlite (otherwise, in
 * BENCH_PGLITE_DIR, else in a fresh folder: pglite-folder.mjs), mint one and report it as
 * `{ url, apiKey }`.
 *
 * Packages are imported by name, each kind importing only its own: run from bench/, they are the
 * workspace's (its built dist); adapters.bench.mjs copies this file into a project where the packed
 * packages are installed with npm (packed-install.mjs), so the same servers run as a user installs them.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { pgliteFolder } from './pglite-folder.mjs';

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

/**
 * `GET /public` (the bare answer) and `GET /passed` (the same behind `passOn`, a middleware that
 * only goes on) on an app whose `/whoami` has middleware, declared before `/whoami`. `get` declares
 * a route with its handlers, `answer(bodyOf)` makes the framework's handler answering `bodyOf`.
 */
function declareBareRoutes(get, passOn, answer) {
  get(
    '/public',
    answer(() => BODY),
  );
  get(
    '/passed',
    passOn,
    answer(() => BODY),
  );
}

/**
 * An Express app with `GET /whoami` behind `middleware` (and, with some, `GET /public` without
 * it), on a server made by `serverOptions`.
 */
async function expressServer(middleware, body, serverOptions = {}) {
  const { default: express } = await import('express');
  const app = express();
  app.disable('x-powered-by');
  const answer = (bodyOf) => (req, res) => {
    res.set('cache-control', 'no-store').json(bodyOf(req));
  };
  if (middleware.length > 0) declareBareRoutes(app.get.bind(app), (_req, _res, next) => next(), answer);
  app.get('/whoami', ...middleware, answer(body));
  return { app, server: createServer(serverOptions, app) };
}

async function bareExpress() {
  return (await expressServer([], () => BODY)).server;
}

/**
 * The router's private key for a request's matched route (as examples/express-server/src/http/shaped-messages.ts
 * reads it), looked up when the first shaped server starts: a project without Express runs the other kinds.
 */
let ROUTER_MATCHED_ROUTE;

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
    this.route = undefined;
    this[Symbol.for('router.tracing.publishedErrors')] = undefined;
    if (ROUTER_MATCHED_ROUTE !== undefined) this[ROUTER_MATCHED_ROUTE] = undefined;
    this._eventsCount = 0;
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

async function shapedExpress() {
  ROUTER_MATCHED_ROUTE = createRequire(createRequire(import.meta.url).resolve('express'))('router/lib/symbols.js').matchedRoute;
  return (await expressServer([], () => BODY, { IncomingMessage: ShapedRequest, ServerResponse: ShapedResponse })).server;
}

function identityProvider() {
  const { AUTH_ISSUER: issuer, AUTH_AUDIENCE: audience, AUTH_JWKS_URL: jwksUri } = process.env;
  if (!issuer || !audience || !jwksUri) throw new Error('set AUTH_ISSUER, AUTH_AUDIENCE and AUTH_JWKS_URL');
  return { issuer, audience, jwksUri };
}

async function oauth2JwtBearer() {
  const { issuer, audience, jwksUri } = identityProvider();
  const { auth } = await import('express-oauth2-jwt-bearer');
  const bearer = auth({ issuer, audience, jwksUri, tokenSigningAlg: 'RS256' });
  return (await expressServer([bearer], (req) => ({ accountId: req.auth.payload.sub, credential: 'id_token' }))).server;
}

const extra = {};

/**
 * An authenticator on the memory store (KEY_STORE=memory), PostgreSQL (DATABASE_URL) or PGlite in
 * a fresh folder, with one key minted into `extra.apiKey`.
 */
async function benchAuthenticator() {
  const { issuer, audience, jwksUri } = identityProvider();
  const { createAuthenticator, createIdTokenVerifier, generateApiKey, MemoryKeyStore } = await import('@drops/auth');
  let keyStore;
  if (process.env.KEY_STORE === 'memory') keyStore = new MemoryKeyStore();
  else {
    const { openPGliteKeyStore, openPostgresKeyStore } = await import('@drops/auth-postgres');
    // MIN_USE_INTERVAL_MS (bench/http-instructions.mjs sets it): how often a key's last use is written.
    const uses = process.env.MIN_USE_INTERVAL_MS ? { minUseIntervalMs: Number(process.env.MIN_USE_INTERVAL_MS) } : {};
    keyStore = process.env.DATABASE_URL
      ? await openPostgresKeyStore({ connectionString: process.env.DATABASE_URL, ...uses })
      : await openPGliteKeyStore({ dataDir: process.env.BENCH_PGLITE_DIR ?? pgliteFolder(), ...uses });
  }
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
  const { dropsAuth, principalOf } = await import('@drops/auth-express');
  const drops = dropsAuth({ authenticator: await benchAuthenticator() });
  const { app, server } = await expressServer([drops.requireAuth()], (req) => whoamiBody(principalOf(req)));
  app.use(drops.errorHandler());
  return server;
}

/** A Fastify app on its own node:http server (Fastify's `serverFactory`), listened on like the others. */
async function fastifyServer(register) {
  const { default: Fastify } = await import('fastify');
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

/** The bare route's handler, as `GET /whoami` of the bare app and `GET /public` of the others. */
const bareFastifyRoute = (_request, reply) => reply.header('cache-control', 'no-store').send(BODY);

function bareFastify() {
  return fastifyServer((app) => {
    app.get('/whoami', bareFastifyRoute);
  });
}

async function fastifyWithDropsAuth() {
  const { dropsAuth } = await import('@drops/auth-fastify');
  const drops = dropsAuth({ authenticator: await benchAuthenticator() });
  return fastifyServer((app) => {
    app.setErrorHandler(drops.errorHandler);
    app.get('/public', bareFastifyRoute);
    app.get('/passed', { onRequest: (_request, _reply, done) => done() }, bareFastifyRoute);
    app.get('/whoami', { onRequest: drops.requireAuth() }, (request, reply) =>
      reply.header('cache-control', 'no-store').send(whoamiBody(request.auth)),
    );
  });
}

/** A Koa app with `GET /whoami` behind `middleware` (none: the bare route; some: `GET /public` too, without it). */
async function koaServer(middleware, body) {
  const [{ default: Koa }, { default: Router }] = await Promise.all([import('koa'), import('@koa/router')]);
  const router = new Router();
  const answer = (bodyOf) => (ctx) => {
    ctx.set('cache-control', 'no-store');
    ctx.body = bodyOf(ctx);
  };
  if (middleware.length > 0) declareBareRoutes(router.get.bind(router), (_ctx, next) => next(), answer);
  router.get('/whoami', ...middleware, answer(body));
  const app = new Koa();
  app.use(router.routes());
  return createServer(app.callback());
}

function bareKoa() {
  return koaServer([], () => BODY);
}

async function koaWithDropsAuth() {
  const { dropsAuth } = await import('@drops/auth-koa');
  const drops = dropsAuth({ authenticator: await benchAuthenticator() });
  return koaServer([drops.requireAuth()], (ctx) => whoamiBody(ctx.state.auth));
}

/** A Hono app on @hono/node-server with `GET /whoami` behind `middleware` (some: `GET /public` too, without it). */
async function honoServer(middleware, body) {
  const [{ Hono }, { createAdaptorServer }] = await Promise.all([import('hono'), import('@hono/node-server')]);
  const app = new Hono();
  const answer = (bodyOf) => (c) => c.json(bodyOf(c), 200, { 'cache-control': 'no-store' });
  if (middleware.length > 0) declareBareRoutes(app.get.bind(app), (_c, next) => next(), answer);
  app.get('/whoami', ...middleware, answer(body));
  return createAdaptorServer({ fetch: app.fetch });
}

function bareHono() {
  return honoServer([], () => BODY);
}

async function honoWithDropsAuth() {
  const { dropsAuth } = await import('@drops/auth-hono');
  const drops = dropsAuth({ authenticator: await benchAuthenticator() });
  return honoServer([drops.requireAuth()], (c) => whoamiBody(c.var.auth));
}

/**
 * A NestJS app on its default platform (platform-express) with one controller, `GET /whoami`,
 * the decorators applied as TypeScript's compiled output applies them (`Reflect.decorate`): this
 * file is plain JavaScript. `guard` (none: the bare route) goes in `@UseGuards` (and with one,
 * `GET /public` answers without it), and the handler
 * gets `@Principal()` when `principal` is given; `imports` are the root module's.
 */
async function nestServer({ imports = [], guard, principal }, body) {
  await import('reflect-metadata');
  const [{ Controller, Get, Header, Module, UseGuards }, { NestFactory }] = await Promise.all([
    import('@nestjs/common'),
    import('@nestjs/core'),
  ]);
  class WhoamiController {
    public() {
      return BODY;
    }
    passed() {
      return BODY;
    }
    whoami(p) {
      return body(p);
    }
  }
  const { prototype } = WhoamiController;
  // With a guard, `GET /public` without it and `GET /passed` behind one that lets every request
  // through (declared first: Nest registers the routes in that order).
  class PassingGuard {
    canActivate() {
      return true;
    }
  }
  if (guard) {
    const bare = (path, guards) => {
      const decorators = [Get(path), Header('cache-control', 'no-store'), ...(guards ? [UseGuards(...guards)] : [])];
      Reflect.decorate(decorators, prototype, path, Object.getOwnPropertyDescriptor(prototype, path));
    };
    bare('public');
    bare('passed', [PassingGuard]);
  }
  const decorators = [Get('whoami'), Header('cache-control', 'no-store'), ...(guard ? [UseGuards(guard)] : [])];
  Reflect.decorate(decorators, prototype, 'whoami', Object.getOwnPropertyDescriptor(prototype, 'whoami'));
  if (principal) principal()(prototype, 'whoami', 0);
  Reflect.decorate([Controller()], WhoamiController);
  class AppModule {}
  Reflect.decorate([Module({ imports, controllers: [WhoamiController] })], AppModule);
  const app = await NestFactory.create(AppModule, { logger: false });
  app.getHttpAdapter().getInstance().disable('x-powered-by');
  await app.init();
  return app.getHttpServer();
}

function bareNest() {
  return nestServer({}, () => BODY);
}

async function nestWithDropsAuth() {
  const { DropsAuthGuard, DropsAuthModule, Principal } = await import('@drops/auth-nestjs');
  const authenticator = await benchAuthenticator();
  return nestServer({ imports: [DropsAuthModule.forRoot({ authenticator })], guard: DropsAuthGuard, principal: Principal }, whoamiBody);
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
  nestjs: bareNest,
  'nestjs-drops-auth': nestWithDropsAuth,
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
function stop() {
  server.closeAllConnections();
  server.close(() => process.exit(0));
}
process.on('SIGTERM', stop);
// Started by a bench that has gone (killed, or crashed past its cleanup): nothing is left running.
process.on('disconnect', stop);
