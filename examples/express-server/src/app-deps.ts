import type { Authenticator, KeyManager, LeakedKeysOptions, RateLimitStore } from '@drops/auth';
import type { DropsAuthExpress } from '@drops/auth-express';
import type { Queryable } from '@drops/auth-postgres';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { BillingRepository } from './db/billing-repository.js';
import type { DropsRepository } from './db/drops-repository.js';
import type { VanityRepository } from './db/vanity-repository.js';
import type { ServerMetrics } from './metrics/server-metrics.js';
import type { DevIdentityProvider } from '@drops/auth/testing';

/** Whether the process is draining for shutdown (health checks answer 503, connections close). */
export interface Lifecycle {
  shuttingDown: boolean;
}

/** Everything `createApp` needs; tests build it with their own database, clock and logger. */
export interface AppDeps {
  readonly config: Pick<
    Config,
    | 'maxBodyBytes'
    | 'maxDropBytes'
    | 'anonymousDeployLimit'
    | 'anonymousDeployWindowMs'
    | 'trustProxy'
    | 'ipv6PrefixLength'
    | 'secretScanningLimit'
    | 'secretScanningWindowMs'
    | 'publicUrl'
    | 'dropsOrigin'
    | 'dashboard'
    | 'metrics'
    | 'secretScanningKeysUrl'
    | 'revokeByValueLimit'
    | 'revokeByValueWindowMs'
  >;
  readonly authenticator: Authenticator;
  readonly keys: KeyManager;
  readonly db: Queryable;
  /** Whether API keys can be checked now (the key store's lease held); `/healthz` is a 503 otherwise. Default: always. */
  readonly answeringKeys?: () => boolean;
  readonly logger: Logger;
  /** The built-in development identity provider, or `null` when a real one is configured. */
  readonly devIdentity: DevIdentityProvider | null;
  /** Milliseconds since the epoch, for drop times and expiry. */
  readonly clock: () => number;
  readonly lifecycle: Lifecycle;
  /** Prometheus metrics, fed by the access log and the diagnostics channels; `null` when off. */
  readonly metrics?: ServerMetrics | null;
  /**
   * The leaked-key routes' options, instead of those built from `config` (GitHub's key list at
   * `secretScanningKeysUrl`, `revokeByValueLimit`): for tests that bring their own.
   */
  readonly leakedKeys?: LeakedKeysOptions;
  /**
   * Where the app's limits per client address are counted (anonymous deploys, revokes by value,
   * secret scanning alerts): on PostgreSQL a `PostgresRateLimitStore`, shared by every instance.
   * Default: `inProcessRateLimitStore({ clock })`.
   */
  readonly rateLimitStore?: RateLimitStore;
}

/** What route factories receive: the deps, the repositories and the bound drops-auth middleware. */
export interface RouteContext extends AppDeps {
  readonly rateLimitStore: RateLimitStore;
  readonly auth: DropsAuthExpress;
  readonly drops: DropsRepository;
  readonly vanity: VanityRepository;
  readonly billing: BillingRepository;
}
