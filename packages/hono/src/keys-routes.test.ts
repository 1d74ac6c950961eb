import { getConnInfo } from '@hono/node-server/conninfo';
import { describeKeyRoutes } from '@drops/auth/testing/conformance';
import { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, beforeEach, describe, it } from 'vitest';
import { dropsAuth } from './drops-auth.js';
import { listen } from './test-server.js';

describeKeyRoutes({ describe, it, beforeEach, afterEach, beforeAll, afterAll }, 'dropsAuth().keysRoutes() (Hono on @hono/node-server)', {
  serve: ({ authenticator, keys, keyRoutes }) => {
    const auth = dropsAuth({ authenticator, keys, clientIp: (c) => getConnInfo(c).remote.address });
    const app = new Hono();
    app.route('/keys', auth.keysRoutes(keyRoutes));
    return listen(app);
  },
});
