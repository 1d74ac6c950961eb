// @drops/auth-express, packed, on the Express this project installed (4 or 5): the key routes and
// the middleware over HTTP.
import { dropsAuth, principalOf } from '@drops/auth-express';
import express from 'express';
import { describeAdapter, installedVersion } from './support.mjs';

describeAdapter(`Express ${installedVersion('express')}`, ({ authenticator, keys }) => {
  const auth = dropsAuth({ authenticator, keys });
  const app = express();
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  app.use('/keys', auth.keysRouter());
  app.get('/whoami', auth.requireAuth(), (req, res) => {
    res.json({ accountId: principalOf(req).accountId });
  });
  app.post('/deploy', auth.optionalAuth(), (req, res) => {
    res.status(201).json({ owner: req.auth?.accountId ?? null });
  });
  app.use(auth.errorHandler());
  return app.listen(0, '127.0.0.1');
});
