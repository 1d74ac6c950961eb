import { createAuthenticator, createIdTokenVerifier, createKeyManager, MemoryKeyStore } from '@drops/auth';
import { LocalIdentityProvider, snapshotOf, UNIFORM_401 } from '@drops/auth/testing';
import type { INestApplication } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DropsAuthModule } from './drops-auth.module.js';

// @nestjs/testing builds the module before there is an HTTP server: the routes are mounted when the
// app initialises instead (after Nest's body parsers), and still answer.
describe('DropsAuthModule in an app from @nestjs/testing', () => {
  let idp: LocalIdentityProvider;
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    idp = await LocalIdentityProvider.start();
    const keyStore = new MemoryKeyStore();
    @Module({
      imports: [
        DropsAuthModule.forRoot({
          authenticator: createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) }),
          keys: createKeyManager({ keyStore }),
        }),
      ],
    })
    class AppModule {}
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    url = (await app.getUrl()).replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1');
  });

  afterAll(async () => {
    await app?.close();
    await idp?.close();
  });

  it('serves the /keys routes: the uniform 401 without a credential, a key minted with an ID token', async () => {
    expect(await snapshotOf(await fetch(`${url}/keys/unknown/path`, { method: 'PUT' }))).toEqual(UNIFORM_401);
    const minted = await fetch(`${url}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${idp.mintIdToken({ sub: 'acct-testing' })}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ci' }),
    });
    expect(minted.status).toBe(201);
    const { apiKey } = (await minted.json()) as { apiKey: string };
    const listed = await fetch(`${url}/keys`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(((await listed.json()) as { keys: Array<{ name: string }> }).keys.map((key) => key.name)).toEqual(['ci']);
  });
});
