// @drops/auth-koa, packed, on the Koa and @koa/router this project installed: the key routes and
// the middleware over HTTP.
import { dropsAuth } from '@drops/auth-koa';
import Router from '@koa/router';
import Koa from 'koa';
import { describeAdapter, installedVersion } from './support.mjs';

describeAdapter(`Koa ${installedVersion('koa')} with @koa/router ${installedVersion('@koa/router')}`, ({ authenticator, keys }) => {
  const auth = dropsAuth({ authenticator, keys });
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { ok: true };
  });
  router.get('/whoami', auth.requireAuth(), (ctx) => {
    ctx.body = { accountId: ctx.state.auth.accountId };
  });
  router.post('/deploy', auth.optionalAuth(), (ctx) => {
    ctx.status = 201;
    ctx.body = { owner: ctx.state.auth?.accountId ?? null };
  });
  const app = new Koa();
  app.use(auth.keysRouter().routes());
  app.use(router.routes()).use(router.allowedMethods());
  return app.listen(0, '127.0.0.1');
});
