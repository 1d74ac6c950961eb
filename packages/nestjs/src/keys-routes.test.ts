import { describeKeyRoutes } from '@drops/auth/testing/conformance';
import { Module } from '@nestjs/common';
import { afterAll, afterEach, beforeAll, beforeEach, describe, it } from 'vitest';
import { DropsAuthModule } from './drops-auth.module.js';
import { listenNest, PLATFORMS } from './test-app.js';

for (const platform of PLATFORMS) {
  describeKeyRoutes({ describe, it, beforeEach, afterEach, beforeAll, afterAll }, `DropsAuthModule.forRoot() on platform-${platform}`, {
    serve: ({ authenticator, keys, keyRoutes }) => {
      @Module({ imports: [DropsAuthModule.forRoot({ authenticator, keys, keysPath: 'keys', keyRoutes })] })
      class AppModule {}
      return listenNest(AppModule, platform);
    },
  });
}
