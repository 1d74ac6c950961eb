import { createAuthenticator, createIdTokenVerifier, createKeyManager, MemoryKeyStore } from '@drops/auth';
import { LocalIdentityProvider, snapshotOf, uniform401Of, uniform401WireSweep, UNAUTHENTICATED_VARIANTS } from '@drops/auth/testing';
import Router from '@koa/router';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropsAuth } from './drops-auth.js';
import { listen, type TestServer } from './test-server.js';

// The uniform 401 read off the socket: status line, header lines in order, body bytes.
let idp: LocalIdentityProvider;

beforeAll(async () => {
  idp = await LocalIdentityProvider.start();
});

afterAll(async () => {
  await idp?.close();
});

describe.each(UNAUTHENTICATED_VARIANTS)(
  `the uniform 401 on the wire, Koa ${process.env['KOA_MAJOR']}, @koa/router ${process.env['KOA_ROUTER_MAJOR']}, %s`,
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
      const router = new Router();
      router.get('/whoami', auth.requireAuth(), (ctx) => {
        ctx.body = { accountId: ctx.state.auth.accountId };
      });
      router.get('/token-only', auth.requireAuth({ accept: ['id_token'] }), (ctx) => {
        ctx.body = { ok: true };
      });
      router.post('/deploy', auth.optionalAuth(), (ctx) => {
        ctx.status = 201;
        ctx.body = {};
      });
      const app = new Koa();
      app.silent = true;
      app.use(auth.keysRouter().routes());
      app.use(router.routes()).use(router.allowedMethods());
      server = await listen(app);
    });

    afterAll(async () => {
      await server?.close();
    });

    it('is the same bytes, header order included, for every cause on every route', async () => {
      const sweep = await uniform401WireSweep({
        url: server.url,
        idp,
        accountRoutes: [['GET', '/whoami']],
        idTokenOnlyRoutes: [['GET', '/token-only']],
        optionalRoute: ['POST', '/deploy'],
      });
      for (const [what, wire] of sweep.answers) expect(wire, what).toBe(sweep.expected);
      expect(await snapshotOf(sweep.reference)).toEqual(uniform401Of(unauthenticated));
    });
  },
);
