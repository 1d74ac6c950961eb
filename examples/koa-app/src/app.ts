import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import type { Authenticator, KeyManager } from '@drops/auth';
import { dropsAuth } from '@drops/auth-koa';
import Koa from 'koa';
import { DropStore } from './drop-store.js';
import { requestLogger } from './request-logger.js';

/** What the app needs from outside: drops auth's authenticator and key manager, and a log. */
export interface AppOptions {
  authenticator: Authenticator;
  keys: KeyManager;
  log?: (line: string) => void;
}

/**
 * An existing Koa app (logger, body parser, public routes, its own drop storage) with drops auth
 * added. The lines marked `drops auth` are all it took.
 */
export function createApp({ authenticator, keys, log }: AppOptions): Koa {
  const drops = new DropStore();
  const auth = dropsAuth({ authenticator, keys }); // drops auth
  const router = new Router();

  router.get('/', (ctx) => {
    ctx.body = { service: 'drops', docs: 'https://example.com/docs' };
  });
  router.get('/healthz', (ctx) => {
    ctx.body = { ok: true };
  });

  // An API key or an ID token.
  router.get('/drops', auth.requireAuth(), (ctx) => {
    ctx.body = { drops: drops.listByOwner(ctx.state.auth.accountId) };
  });

  // An ID token only: a person signed in to the dashboard, never a CI key.
  router.get('/account', auth.requireAuth({ accept: ['id_token'] }), (ctx) => {
    const { accountId, claims } = ctx.state.auth;
    ctx.body = { accountId, email: claims?.email ?? null };
  });

  // No credential is fine (an anonymous drop); a bad one is still the 401.
  router.post('/deploy', auth.optionalAuth(), (ctx) => {
    const owner = ctx.state.auth?.accountId ?? null;
    ctx.status = 201;
    ctx.body = drops.create(owner, JSON.stringify(ctx.request.body ?? null).length);
  });

  const app = new Koa();
  app.use(requestLogger(log));
  app.use(auth.keysRouter().routes()); // drops auth: every /keys route
  app.use(bodyParser());
  app.use(router.routes()).use(router.allowedMethods());
  return app;
}
