// @drops/auth-express, packed, on the Express this project installed (4 or 5): the key routes and
// the middleware over HTTP.
import { after, before, describe, it } from 'node:test';
import { dropsAuth, principalOf } from '@drops/auth-express';
import express from 'express';
import { checkKeyFlow, checkOptionalAuth } from './key-flow.mjs';
import { closeServer, installedVersion, localAuth, urlOf } from './support.mjs';

describe(`Express ${installedVersion('express')}`, () => {
  /** @type {Awaited<ReturnType<typeof localAuth>>} */
  let auth;
  /** @type {import('node:http').Server} */
  let server;
  let url = '';

  before(async () => {
    auth = await localAuth();
    const drops = dropsAuth({ authenticator: auth.authenticator, keys: auth.keys });
    const app = express();
    app.get('/healthz', (_req, res) => {
      res.json({ ok: true });
    });
    app.use('/keys', drops.keysRouter());
    app.get('/whoami', drops.requireAuth(), (req, res) => {
      res.json({ accountId: principalOf(req).accountId });
    });
    app.post('/deploy', drops.optionalAuth(), (req, res) => {
      res.status(201).json({ owner: req.auth?.accountId ?? null });
    });
    app.use(drops.errorHandler());
    server = app.listen(0, '127.0.0.1');
    url = await urlOf(server);
  });

  after(async () => {
    await closeServer(server);
    await auth?.idp.close();
  });

  it('serves the key flow: mint with an ID token, use, refuse, revoke', async () => {
    await checkKeyFlow({ url, idToken: auth.idp.mintIdToken({ sub: 'acct-express' }), accountId: 'acct-express' });
  });

  it('optionalAuth: no credential is anonymous, a bad one the uniform 401', async () => {
    await checkOptionalAuth(url);
  });
});
