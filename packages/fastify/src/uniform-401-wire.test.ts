import { createAuthenticator, createIdTokenVerifier, createKeyManager, MemoryKeyStore } from '@drops/auth';
import { LocalIdentityProvider, snapshotOf, uniform401Of, uniform401WireSweep, UNAUTHENTICATED_VARIANTS } from '@drops/auth/testing';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropsAuth } from './drops-auth.js';
import { principalOf } from './principal-of.js';
import { listen, type TestServer } from './test-server.js';

// The uniform 401 read off the socket: status line, header lines in order, body bytes. The hooks
// run both as `preHandler` (after Fastify's own JSON parser) and as `onRequest` (before it).
let idp: LocalIdentityProvider;

beforeAll(async () => {
  idp = await LocalIdentityProvider.start();
});

afterAll(async () => {
  await idp?.close();
});

describe.each(UNAUTHENTICATED_VARIANTS)(
  `the uniform 401 on the wire, Fastify ${process.env['FASTIFY_MAJOR']}, %s`,
  (_label, unauthenticated) => {
    let server: TestServer;

    beforeAll(async () => {
      const keyStore = new MemoryKeyStore();
      const auth = dropsAuth({
        authenticator: createAuthenticator({
          keyStore,
          idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }),
          unauthenticated,
        }),
        keys: createKeyManager({ keyStore }),
      });
      const app = Fastify();
      await app.register(auth.keysRoutes, { prefix: '/keys' });
      app.setErrorHandler(auth.errorHandler);
      app.get('/whoami', { preHandler: auth.requireAuth() }, async (req) => ({ accountId: principalOf(req).accountId }));
      // A route that forgot its hook: principalOf fails closed with the hooks' own bytes.
      app.get('/no-hook', async (req) => ({ accountId: principalOf(req).accountId }));
      app.post('/drops', { onRequest: auth.requireAuth() }, async (req, reply) =>
        reply.code(201).send({ owner: principalOf(req).accountId }),
      );
      app.get('/token-only', { preHandler: auth.requireAuth({ accept: ['id_token'] }) }, async () => ({ ok: true }));
      app.post('/deploy', { preHandler: auth.optionalAuth() }, async (_req, reply) => reply.code(201).send({}));
      server = await listen(app);
    });

    afterAll(async () => {
      await server?.close();
    });

    it('is the same bytes, header order included, for every cause on every route', async () => {
      const sweep = await uniform401WireSweep({
        url: server.url,
        idp,
        accountRoutes: [
          ['GET', '/whoami'],
          ['POST', '/drops'],
          ['GET', '/no-hook'],
        ],
        idTokenOnlyRoutes: [['GET', '/token-only']],
        optionalRoute: ['POST', '/deploy'],
      });
      for (const [what, wire] of sweep.answers) expect(wire, what).toBe(sweep.expected);
      expect(await snapshotOf(sweep.reference)).toEqual(uniform401Of(unauthenticated));
    });
  },
);
