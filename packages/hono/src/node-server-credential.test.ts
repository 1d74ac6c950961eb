// On @hono/node-server the middleware reads the credential from Node's request (no Web Headers
// built per request), but only when the request Hono sees is node-server's own: an app that wraps
// `fetch` and hands Hono a Request it built (another Authorization, say) is judged on that Request.
import { createAuthenticator, generateApiKey, MemoryKeyStore } from '@drops/auth';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { dropsAuth } from './drops-auth.js';

const servers: ServerType[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

async function appWithKey() {
  const keyStore = new MemoryKeyStore();
  const key = generateApiKey();
  await keyStore.create({
    id: key.id,
    accountId: 'acct_node',
    prefix: key.prefix,
    name: null,
    createdAt: new Date(),
    provenance: null,
    expiresAt: null,
  });
  const auth = dropsAuth({ authenticator: createAuthenticator({ keyStore }) });
  const app = new Hono();
  app.get('/whoami', auth.requireAuth(), (c) => c.json({ accountId: c.var.auth.accountId }));
  return { app, secret: key.secret };
}

async function listen(fetch: (request: Request, env: unknown) => Response | Promise<Response>): Promise<string> {
  const started = await new Promise<ServerType>((resolve) => {
    const s: ServerType = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  servers.push(started);
  return `http://127.0.0.1:${(started.address() as AddressInfo).port}`;
}

describe('Hono on @hono/node-server: where the credential is read', () => {
  it("reads node-server's own request: a valid key authenticates, two Authorization headers are the uniform 401", async () => {
    const { app, secret } = await appWithKey();
    const url = await listen(app.fetch);
    expect((await fetch(`${url}/whoami`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);
    const twice = new Headers([
      ['authorization', `Bearer ${secret}`],
      ['authorization', 'Bearer hp_other'],
    ]);
    expect((await fetch(`${url}/whoami`, { headers: twice })).status).toBe(401);
  });

  it('judges a Request the app built itself, not the Node request underneath it', async () => {
    const { app, secret } = await appWithKey();
    // A wrapper that drops the client's credential: the route must not see the key it removed.
    const url = await listen((request, env) => {
      const headers = new Headers(request.headers);
      headers.delete('authorization');
      return app.fetch(new Request(request.url, { method: request.method, headers }), env);
    });
    expect((await fetch(`${url}/whoami`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401);
    // And one that adds a credential the Node request never carried.
    const added = await listen((request, env) => {
      const headers = new Headers(request.headers);
      headers.set('authorization', `Bearer ${secret}`);
      return app.fetch(new Request(request.url, { method: request.method, headers }), env);
    });
    expect((await fetch(`${added}/whoami`)).status).toBe(200);
  });
});
