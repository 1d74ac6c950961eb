import type { Principal as DropsPrincipal } from '@drops/auth';
import { createAuthenticator, createIdTokenVerifier, createKeyManager, MemoryKeyStore } from '@drops/auth';
import { LocalIdentityProvider, snapshotOf, uniform401Of, uniform401WireSweep, UNAUTHENTICATED_VARIANTS } from '@drops/auth/testing';
import { Controller, Get, HttpCode, Module, Post, UseGuards } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DropsAuthGuard, DropsIdTokenGuard } from './drops-auth.guard.js';
import { DropsAuthModule } from './drops-auth.module.js';
import { Principal } from './principal.decorator.js';
import { listenNest, PLATFORMS, type TestServer } from './test-app.js';

@Controller()
class AccountController {
  @Get('whoami')
  @UseGuards(DropsAuthGuard)
  whoami(@Principal() principal: DropsPrincipal) {
    return { accountId: principal.accountId };
  }

  @Get('token-only')
  @UseGuards(DropsIdTokenGuard)
  tokenOnly() {
    return { ok: true };
  }

  @Post('deploy')
  @HttpCode(201)
  @UseGuards(DropsAuthGuard)
  deploy() {
    return {};
  }
}

describe.each(
  PLATFORMS.flatMap((platform) => UNAUTHENTICATED_VARIANTS.map(([label, unauthenticated]) => [platform, label, unauthenticated] as const)),
)('the uniform 401 on the wire, guards on Nest controllers, platform-%s, %s', (platform, _label, unauthenticated) => {
  let idp: LocalIdentityProvider;
  let server: TestServer;

  beforeAll(async () => {
    idp = await LocalIdentityProvider.start();
    const keyStore = new MemoryKeyStore();
    @Module({
      imports: [
        DropsAuthModule.forRoot({
          authenticator: createAuthenticator({
            keyStore,
            idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }),
            unauthenticated,
          }),
          keys: createKeyManager({ keyStore }),
        }),
      ],
      controllers: [AccountController],
    })
    class AppModule {}
    server = await listenNest(AppModule, platform);
  });

  afterAll(async () => {
    await server?.close();
    await idp?.close();
  });

  it('is the same bytes, header order included, for every cause on every route', async () => {
    const sweep = await uniform401WireSweep({
      url: server.url,
      idp,
      accountRoutes: [
        ['GET', '/whoami'],
        ['POST', '/deploy'],
      ],
      idTokenOnlyRoutes: [['GET', '/token-only']],
    });
    for (const [what, wire] of sweep.answers) expect(wire, what).toBe(sweep.expected);
    expect(await snapshotOf(sweep.reference)).toEqual(uniform401Of(unauthenticated));
  });

  it('lets a valid ID token through, with its principal', async () => {
    const res = await fetch(`${server.url}/whoami`, { headers: { authorization: `Bearer ${idp.mintIdToken({ sub: 'acct_nest' })}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accountId: 'acct_nest' });
  });
});
