import { createAuthenticator, createIdTokenVerifier, createKeyManager, MemoryKeyStore } from '@drops/auth';
import { describeLeakedKeysRoutes } from '@drops/auth/testing/conformance';
import { Module } from '@nestjs/common';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DropsAuthModule } from './drops-auth.module.js';
import { listenNest, PLATFORMS } from './test-app.js';

for (const platform of PLATFORMS) {
  describeLeakedKeysRoutes(
    { describe, it, beforeEach, afterEach, beforeAll, afterAll },
    `DropsAuthModule.forRoot({ leakedKeys }) on platform-${platform}`,
    {
      serve: ({ authenticator, keys, leakedKeys }) => {
        @Module({ imports: [DropsAuthModule.forRoot({ authenticator, keys, leakedKeys })] })
        class AppModule {}
        return listenNest(AppModule, platform);
      },
    },
  );
}

describe('DropsAuthModule.forRoot({ leakedKeys })', () => {
  it('checks the leaked-key options at start-up', () => {
    const keyStore = new MemoryKeyStore();
    const authenticator = createAuthenticator({
      keyStore,
      idTokenVerifier: createIdTokenVerifier({
        issuer: 'https://issuer.example',
        audience: 'drops',
        jwksUrl: 'https://issuer.example/jwks',
      }),
    });
    const keys = createKeyManager({ keyStore });
    expect(() => DropsAuthModule.forRoot({ authenticator, keys, leakedKeys: { revokeBodyLimit: 0 } })).toThrow(TypeError);
    expect(() => DropsAuthModule.forRoot({ authenticator, keys, leakedKeys: { limit: 1 } as never })).toThrow(/unknown option "limit"/);
    expect(() => DropsAuthModule.forRoot({ authenticator, leakedKeys: {} })).toThrow(TypeError);
  });
});
