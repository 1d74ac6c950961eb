import { keysHandler, withAuth, type Authenticator, type KeyManager } from '@drops/auth';
import { Hono, type Context } from 'hono';
import { DropStore } from './drop-store.js';
import { requestLogger } from './request-logger.js';

/** What the app needs from outside: drops auth's authenticator and key manager, and a log. */
export interface AppOptions {
  authenticator: Authenticator;
  keys: KeyManager;
  log?: (line: string) => void;
}

/**
 * An existing Hono app (logger, public routes, its own drop storage) with drops auth added over
 * the core's Web `Request` adapter (`withAuth`): no Hono-specific package.
 */
export function createApp({ authenticator, keys, log }: AppOptions): Hono {
  const drops = new DropStore();
  const app = new Hono();
  app.use(requestLogger(log));

  app.get('/', (c) => c.json({ service: 'drops', docs: 'https://example.com/docs' }));
  app.get('/healthz', (c) => c.json({ ok: true }));

  // #region hono-routes
  // An API key or an ID token.
  const listDrops = withAuth(authenticator, {}, (_request, principal, c: Context) =>
    c.json({ drops: drops.listByOwner(principal.accountId) }),
  );
  app.get('/drops', (c) => listDrops(c.req.raw, c));

  // An ID token only: a person signed in to the dashboard, never a CI key.
  const account = withAuth(authenticator, { accept: ['id_token'] }, (_request, principal, c: Context) =>
    c.json({ accountId: principal.accountId, email: principal.claims?.email ?? null }),
  );
  app.get('/account', (c) => account(c.req.raw, c));

  // No credential is fine (an anonymous drop); a bad one is still the 401.
  const deploy = withAuth(authenticator, { optional: true }, async (request, principal, c: Context) => {
    const body = await request.text();
    return c.json(drops.create(principal?.accountId ?? null, body.length), 201);
  });
  app.post('/deploy', (c) => deploy(c.req.raw, c));
  // #endregion

  // #region hono-keys
  // POST /keys (ID token only), GET /keys, DELETE /keys/:id: the core's fetch-style key routes.
  const keysRoutes = keysHandler(authenticator, keys);
  app.all('/keys', (c) => keysRoutes(c.req.raw));
  app.all('/keys/*', (c) => keysRoutes(c.req.raw));
  // #endregion
  return app;
}
