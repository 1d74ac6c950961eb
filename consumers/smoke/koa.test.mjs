// @drops/auth-koa, packed, on the Koa and @koa/router this project installed: the key routes and
// the middleware over HTTP.
import { after, before, describe, it } from 'node:test';
import { dropsAuth } from '@drops/auth-koa';
import Router from '@koa/router';
import Koa from 'koa';
import { checkKeyFlow, checkOptionalAuth } from './key-flow.mjs';
import { closeServer, installedVersion, localAuth, urlOf } from './support.mjs';

describe(`Koa ${installedVersion('koa')} with @koa/router ${installedVersion('@koa/router')}`, () => {
  /** @type {Awaited<ReturnType<typeof localAuth>>} */
  let auth;
  /** @type {import('node:http').Server} */
  let server;
  let url = '';

  before(async () => {
    auth = await localAuth();
    const drops = dropsAuth({ authenticator: auth.authenticator, keys: auth.keys });
    const router = new Router();
    router.get('/healthz', (ctx) => {
      ctx.body = { ok: true };
    });
    router.get('/whoami', drops.requireAuth(), (ctx) => {
      ctx.body = { accountId: ctx.state.auth.accountId };
    });
    router.post('/deploy', drops.optionalAuth(), (ctx) => {
      ctx.status = 201;
      ctx.body = { owner: ctx.state.auth?.accountId ?? null };
    });
    const app = new Koa();
    app.use(drops.keysRouter().routes());
    app.use(router.routes()).use(router.allowedMethods());
    server = app.listen(0, '127.0.0.1');
    url = await urlOf(server);
  });

  after(async () => {
    await closeServer(server);
    await auth?.idp.close();
  });

  it('serves the key flow: mint with an ID token, use, refuse, revoke', async () => {
    await checkKeyFlow({ url, idToken: auth.idp.mintIdToken({ sub: 'acct-koa' }), accountId: 'acct-koa' });
  });

  it('optionalAuth: no credential is anonymous, a bad one the uniform 401', async () => {
    await checkOptionalAuth(url);
  });
});
