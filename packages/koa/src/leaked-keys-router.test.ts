import { createAuthenticator, createKeyManager, MemoryKeyStore } from '@drops/auth';
import { describeLeakedKeysRoutes } from '@drops/auth/testing/conformance';
import Koa from 'koa';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dropsAuth } from './drops-auth.js';
import { listen } from './test-server.js';

const label = `Koa ${process.env['KOA_MAJOR'] ?? '3'}, @koa/router ${process.env['KOA_ROUTER_MAJOR'] ?? '15'}`;

describeLeakedKeysRoutes({ describe, it, beforeEach, afterEach, beforeAll, afterAll }, `dropsAuth().leakedKeysRouter() (${label})`, {
  serve: ({ authenticator, keys, leakedKeys }) => {
    const auth = dropsAuth({ authenticator, keys });
    const app = new Koa();
    app.use(auth.keysRouter().routes());
    app.use(auth.leakedKeysRouter(leakedKeys).routes());
    return listen(app);
  },
});

describe('leakedKeysRouter options', () => {
  it('checks them when created', () => {
    const keyStore = new MemoryKeyStore();
    const auth = dropsAuth({ authenticator: createAuthenticator({ keyStore }), keys: createKeyManager({ keyStore }) });
    expect(() => auth.leakedKeysRouter({ revokeBodyLimit: 0 })).toThrow(TypeError);
    expect(() => auth.leakedKeysRouter({ limit: 1 } as never)).toThrow(/unknown option "limit"/);
    expect(() => dropsAuth({ authenticator: createAuthenticator({ keyStore }) }).leakedKeysRouter()).toThrow(TypeError);
  });
});
