import type { Authenticator, KeyManager } from '@drops/auth';
import { dropsAuth, type ClientIp } from '@drops/auth-hono';
import { Hono } from 'hono';
import { DropStore } from './drop-store.js';
import { requestLogger } from './request-logger.js';

/** What the app needs from outside: drops auth's authenticator and key manager, and a log. */
export interface AppOptions {
  authenticator: Authenticator;
  keys: KeyManager;
  log?: (line: string) => void;
  /** Where the runtime says the client's address is, for key events (none by default). */
  clientIp?: ClientIp;
}

/**
 * An existing Hono app (logger, public routes, its own drop storage) with drops auth added by
 * `@drops/auth-hono`: middleware on its routes, and the `/keys` routes mounted as a sub-app.
 */
export function createApp({ authenticator, keys, log, clientIp }: AppOptions): Hono {
  const drops = new DropStore();
  const app = new Hono();
  app.use(requestLogger(log));

  app.get('/', (c) => c.json({ service: 'drops', docs: 'https://example.com/docs' }));
  app.get('/healthz', (c) => c.json({ ok: true }));

  const auth = dropsAuth({ authenticator, keys, clientIp });

  // An API key or an ID token.
  app.get('/drops', auth.requireAuth(), (c) => c.json({ drops: drops.listByOwner(c.var.auth.accountId) }));

  // An ID token only: a person signed in to the dashboard, never a CI key.
  app.get('/account', auth.requireAuth({ accept: ['id_token'] }), (c) =>
    c.json({ accountId: c.var.auth.accountId, email: c.var.auth.claims?.email ?? null }),
  );

  // No credential is fine (an anonymous drop); a bad one is still the 401.
  app.post('/deploy', auth.optionalAuth(), async (c) => {
    const body = await c.req.text();
    return c.json(drops.create(c.var.auth?.accountId ?? null, body.length), 201);
  });

  // every /keys route (mint, list, events, revoke, roll, revoke all, webhook); every method and
  // path under /keys is authenticated first.
  app.route('/keys', auth.keysRoutes());
  return app;
}
