import { describeKeyRoutes } from '@drops/auth/testing/conformance';
import Koa from 'koa';
import { afterAll, afterEach, beforeAll, beforeEach, describe, it } from 'vitest';
import { dropsAuth } from './drops-auth.js';
import { listen } from './test-server.js';

const label = `Koa ${process.env['KOA_MAJOR'] ?? ''}, @koa/router ${process.env['KOA_ROUTER_MAJOR'] ?? ''}`;

describeKeyRoutes({ describe, it, beforeEach, afterEach, beforeAll, afterAll }, `dropsAuth().keysRouter() (${label})`, {
  serve: ({ authenticator, keys, keyRoutes }) => {
    const app = new Koa();
    app.silent = true;
    app.use(dropsAuth({ authenticator, keys }).keysRouter(keyRoutes).routes());
    return listen(app);
  },
});
