import { describeKeyRoutes } from '@drops/auth/testing/conformance';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, it } from 'vitest';
import { dropsAuth } from './drops-auth.js';
import { listen } from './test-server.js';

const label = `Fastify ${process.env['FASTIFY_MAJOR'] ?? ''}`;

describeKeyRoutes({ describe, it, beforeEach, afterEach, beforeAll, afterAll }, `dropsAuth().keysRoutes (${label})`, {
  serve: async ({ authenticator, keys, keyRoutes }) => {
    const app = Fastify();
    await app.register(dropsAuth({ authenticator, keys }).keysRoutes, { prefix: '/keys', ...keyRoutes });
    return listen(app);
  },
});
