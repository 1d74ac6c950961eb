import { getConnInfo } from '@hono/node-server/conninfo';
import { createAuthenticator, createKeyManager, MemoryKeyStore } from '@drops/auth';
import { describeLeakedKeysRoutes } from '@drops/auth/testing/conformance';
import { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dropsAuth } from './drops-auth.js';
import { listen } from './test-server.js';

describeLeakedKeysRoutes(
  { describe, it, beforeEach, afterEach, beforeAll, afterAll },
  'dropsAuth().leakedKeysRoutes() (Hono on @hono/node-server)',
  {
    serve: ({ authenticator, keys, leakedKeys }) => {
      const auth = dropsAuth({ authenticator, keys, clientIp: (c) => getConnInfo(c).remote.address });
      const app = new Hono();
      app.route('/keys', auth.keysRoutes());
      app.route('/', auth.leakedKeysRoutes(leakedKeys));
      return listen(app);
    },
  },
);

describe('leakedKeysRoutes options', () => {
  it('checks them when created', () => {
    const keyStore = new MemoryKeyStore();
    const auth = dropsAuth({ authenticator: createAuthenticator({ keyStore }), keys: createKeyManager({ keyStore }) });
    expect(() => auth.leakedKeysRoutes({ revokeBodyLimit: 0 })).toThrow(TypeError);
    expect(() => auth.leakedKeysRoutes({ limit: 1 } as never)).toThrow(/unknown option "limit"/);
    expect(() => dropsAuth({ authenticator: createAuthenticator({ keyStore }) }).leakedKeysRoutes()).toThrow(TypeError);
  });
});
