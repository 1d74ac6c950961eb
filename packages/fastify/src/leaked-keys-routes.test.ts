import { createAuthenticator, createKeyManager, MemoryKeyStore } from '@drops/auth';
import { describeLeakedKeysRoutes } from '@drops/auth/testing/conformance';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dropsAuth } from './drops-auth.js';
import { listen } from './test-server.js';

const label = `Fastify ${process.env['FASTIFY_MAJOR'] ?? ''}`;

describeLeakedKeysRoutes({ describe, it, beforeEach, afterEach, beforeAll, afterAll }, `dropsAuth().leakedKeysRoutes (${label})`, {
  serve: async ({ authenticator, keys, leakedKeys }) => {
    const auth = dropsAuth({ authenticator, keys });
    const app = Fastify();
    await app.register(auth.keysRoutes, { prefix: '/keys' });
    await app.register(auth.leakedKeysRoutes, leakedKeys);
    return listen(app);
  },
});

describe('leakedKeysRoutes options', () => {
  const keyStore = new MemoryKeyStore();
  const auth = dropsAuth({ authenticator: createAuthenticator({ keyStore }), keys: createKeyManager({ keyStore }) });

  it('are checked when the plugin is registered', async () => {
    await expect(Fastify().register(auth.leakedKeysRoutes, { revokeBodyLimit: 0 })).rejects.toThrow(TypeError);
    await expect(Fastify().register(auth.leakedKeysRoutes, { limit: 1 } as never)).rejects.toThrow(/unknown option "limit"/);
    await expect(Fastify().register(dropsAuth({ authenticator: createAuthenticator({ keyStore }) }).leakedKeysRoutes)).rejects.toThrow(
      TypeError,
    );
  });
});
