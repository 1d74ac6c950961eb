// `req.auth` without a property added to the request (Express swaps every request's prototype,
// and V8 adds a property to such an object slowly), and still `req.auth` everywhere a user looks:
// in a mounted app and router, on a route without drops auth (nothing from an earlier request of
// the same connection), and on a server whose request class declares `auth` itself.
import { createAuthenticator, MemoryKeyStore, generateApiKey } from '@drops/auth';
import { Agent, IncomingMessage, createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import express, { type Request } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropsAuth } from './index.js';

const keyStore = new MemoryKeyStore();
const key = generateApiKey();
const auth = dropsAuth({ authenticator: createAuthenticator({ keyStore }) });
const servers: Server[] = [];

beforeAll(async () => {
  await keyStore.create({
    id: key.id,
    accountId: 'acct_slot',
    prefix: key.prefix,
    name: null,
    createdAt: new Date(),
    provenance: null,
    expiresAt: null,
  });
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  await keyStore.close();
});

/** What a route saw of `req.auth`, and whether the request had an own `auth` property. */
function seen(req: Request): { accountId: string | null | undefined; own: boolean } {
  return { accountId: req.auth === null ? null : req.auth?.accountId, own: Object.hasOwn(req, 'auth') };
}

function appWithRoutes(): express.Express {
  const app = express();
  app.get('/whoami', auth.requireAuth(), (req, res) => {
    res.json(seen(req));
  });
  app.get('/open', (req, res) => {
    res.json(seen(req));
  });
  app.get('/maybe', auth.optionalAuth(), (req, res) => {
    res.json(seen(req));
  });
  const sub = express();
  sub.get('/whoami', (req, res) => {
    res.json(seen(req));
  });
  app.use('/sub', auth.requireAuth(), sub);
  const router = express.Router();
  router.get('/whoami', (req, res) => {
    res.json(seen(req));
  });
  app.use('/router', auth.requireAuth(), router);
  return app;
}

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** GETs on one keep-alive connection, in order: each answer's parsed body. */
async function getInOrder(url: string, requests: { path: string; authorization?: string }[]): Promise<unknown[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const bodies: unknown[] = [];
  const sockets = new Set<Socket>();
  for (const { path, authorization } of requests) {
    bodies.push(
      await new Promise((resolve, reject) => {
        const req = httpRequest(`${url}${path}`, { agent, headers: authorization ? { authorization } : {} }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve(JSON.parse(text)));
        });
        req.on('socket', (socket: Socket) => sockets.add(socket));
        req.on('error', reject);
        req.end();
      }),
    );
  }
  agent.destroy();
  expect(sockets.size).toBe(1);
  return bodies;
}

describe('req.auth', () => {
  it('is set by requireAuth() without an own property on the request', async () => {
    const url = await listen(createServer(appWithRoutes()));
    const [body] = await getInOrder(url, [{ path: '/whoami', authorization: `Bearer ${key.secret}` }]);
    expect(body).toEqual({ accountId: 'acct_slot', own: false });
  });

  it('reaches a mounted app and a router', async () => {
    const url = await listen(createServer(appWithRoutes()));
    const bodies = await getInOrder(url, [
      { path: '/sub/whoami', authorization: `Bearer ${key.secret}` },
      { path: '/router/whoami', authorization: `Bearer ${key.secret}` },
    ]);
    expect(bodies).toEqual([
      { accountId: 'acct_slot', own: false },
      { accountId: 'acct_slot', own: false },
    ]);
  });

  it('is undefined on a route without drops auth, after an authenticated request on the same connection', async () => {
    const url = await listen(createServer(appWithRoutes()));
    const bodies = await getInOrder(url, [
      { path: '/whoami', authorization: `Bearer ${key.secret}` },
      { path: '/open', authorization: `Bearer ${key.secret}` },
      { path: '/maybe' },
    ]);
    expect(bodies).toEqual([{ accountId: 'acct_slot', own: false }, { own: false }, { accountId: null, own: false }]);
  });

  it('is an own property where the request class declares one, as before', async () => {
    class DeclaringRequest extends IncomingMessage {
      auth: unknown = undefined;
    }
    const url = await listen(createServer({ IncomingMessage: DeclaringRequest }, appWithRoutes()));
    const bodies = await getInOrder(url, [{ path: '/whoami', authorization: `Bearer ${key.secret}` }, { path: '/open' }]);
    expect(bodies).toEqual([{ accountId: 'acct_slot', own: true }, { own: true }]);
  });

  it('can still be set and read by the app itself', async () => {
    const app = express();
    app.use(auth.requireAuth());
    app.get('/override', (req, res) => {
      req.auth = { ...req.auth!, accountId: 'acct_override' };
      res.json(seen(req));
    });
    const url = await listen(createServer(app));
    const [body] = await getInOrder(url, [{ path: '/override', authorization: `Bearer ${key.secret}` }]);
    expect(body).toEqual({ accountId: 'acct_override', own: false });
  });
});
