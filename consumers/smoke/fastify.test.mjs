// @drops/auth-fastify, packed, on the Fastify this project installed: the key routes and the
// hooks over HTTP.
import { dropsAuth } from '@drops/auth-fastify';
import Fastify from 'fastify';
import { describeAdapter, installedVersion } from './support.mjs';

describeAdapter(`Fastify ${installedVersion('fastify')}`, ({ authenticator, keys }) => {
  const auth = dropsAuth({ authenticator, keys });
  const app = Fastify();
  app.register(auth.keysRoutes, { prefix: '/keys' });
  app.get('/healthz', async () => ({ ok: true }));
  app.get('/whoami', { preHandler: auth.requireAuth() }, async (req) => ({ accountId: req.auth.accountId }));
  app.post('/deploy', { preHandler: auth.optionalAuth() }, async (req, reply) =>
    reply.code(201).send({ owner: req.auth?.accountId ?? null }),
  );
  app.listen({ port: 0, host: '127.0.0.1' });
  return app.server;
});
