import { Inject, Module, type DynamicModule, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { APP_FILTER, HttpAdapterHost } from '@nestjs/core';
import { DropsAuthErrorFilter } from './drops-auth-error.filter.js';
import { parseModuleOptions, type DropsAuthContext, type DropsAuthModuleOptions } from './drops-auth-options.js';
import { DROPS_AUTH } from './drops-auth-token.js';
import { mountKeyRoutes } from './mount-key-routes.js';

const KEY_ROUTES_MOUNT = Symbol('drops-auth key routes');

/** Whether the `/keys` routes are on the HTTP server yet. */
interface KeyRoutesMount {
  mounted: boolean;
}

/**
 * drops auth for NestJS (platform-express or platform-fastify). `forRoot()` checks its options
 * (an unknown one is a `TypeError` at start-up), provides them globally to `DropsAuthGuard`,
 * `DropsIdTokenGuard` and `@Principal()`, registers the filter that answers drops' errors as
 * their exact bytes, and, given `keys`, mounts the `/keys` routes at `keysPath` (default `'keys'`).
 *
 * The `/keys` routes are mounted on the HTTP server when the app is created, ahead of Nest's body
 * parsers and router: every method and path under the keys path answers from the core, which
 * judges the credential first (without one the uniform 401, never Nest's 404 or a body parser's 400).
 *
 * @example
 * ```ts
 * @Module({
 *   imports: [DropsAuthModule.forRoot({ authenticator, keys, keysPath: 'keys' })],
 *   controllers: [DropsController],
 * })
 * class AppModule {}
 * ```
 */
@Module({})
export class DropsAuthModule implements NestModule {
  constructor(
    @Inject(HttpAdapterHost) private readonly host: HttpAdapterHost,
    @Inject(DROPS_AUTH) private readonly context: DropsAuthContext,
    @Inject(KEY_ROUTES_MOUNT) private readonly mount: KeyRoutesMount,
  ) {}

  /** The module for the app's root module's `imports`; global, so any module's controllers can use the guards. */
  static forRoot(options: DropsAuthModuleOptions): DynamicModule {
    const context = parseModuleOptions(options);
    return {
      module: DropsAuthModule,
      global: true,
      providers: [
        { provide: DROPS_AUTH, useValue: context },
        {
          provide: KEY_ROUTES_MOUNT,
          // Runs when the app is created, before Nest adds its body parsers.
          useFactory: (host: HttpAdapterHost): KeyRoutesMount => ({ mounted: mountKeyRoutes(host, context) }),
          inject: [HttpAdapterHost],
        },
        { provide: APP_FILTER, useClass: DropsAuthErrorFilter },
      ],
      exports: [DROPS_AUTH],
    };
  }

  /**
   * Mounts the `/keys` routes now if there was no HTTP server when the module was built (a module
   * compiled by `@nestjs/testing`): then after Nest's body parsers, whose answers to a malformed
   * body come before the credential is judged.
   */
  configure(_consumer: MiddlewareConsumer): void {
    if (!this.mount.mounted) this.mount.mounted = mountKeyRoutes(this.host, this.context);
  }
}
