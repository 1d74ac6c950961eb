// @drops/auth-hono, packed, on the Hono and @hono/node-server this project installed: the key
// routes and the middleware over HTTP.
import { dropsAuth } from '@drops/auth-hono';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { describeAdapter, installedVersion } from './support.mjs';

describeAdapter(
  `Hono ${installedVersion('hono')} on @hono/node-server ${installedVersion('@hono/node-server')}`,
  ({ authenticator, keys }) => {
    const auth = dropsAuth({ authenticator, keys });
    const app = new Hono();
    app.get('/healthz', (c) => c.json({ ok: true }));
    app.route('/keys', auth.keysRoutes());
    app.get('/whoami', auth.requireAuth(), (c) => c.json({ accountId: c.var.auth.accountId }));
    app.post('/deploy', auth.optionalAuth(), (c) => c.json({ owner: c.var.auth?.accountId ?? null }, 201));
    return serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  },
);
