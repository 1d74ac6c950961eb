import { dashboardConfig, type DashboardConfig } from '@drops/example-dashboard';
import { ConfigError } from './config-error.js';
import { devIdentityAllowed, devIdentityOnDatabaseRefusal, devIdentityRefusal, OIDC_VARIABLES } from './identity/dev-identity-allowed.js';
import {
  DEFAULT_AUTH_FAILURE_WINDOW_SECONDS,
  DEFAULT_DATA_DIR,
  DEFAULT_METRICS_PORT,
  ENV,
  parseSettings,
  plainSettings,
  type PlainSettings,
  type Settings,
} from './settings.js';

export { ConfigError };

/** Where the ID tokens come from. */
export type IdentityConfig =
  | { readonly kind: 'firebase'; readonly projectId: string }
  | { readonly kind: 'oidc'; readonly issuer: string; readonly audience: readonly string[]; readonly jwksUrl: string }
  /** The built-in development identity provider (`POST /dev/token`); never in production. */
  | { readonly kind: 'dev' };

/** Where keys, drops, vanity names and plans are kept. */
export type DatabaseConfig =
  /**
   * `migrate: false` (`DATABASE_MIGRATE=off`): no DDL at start; a schema missing or behind refuses to start.
   * `listenUrl`: a direct connection for `LISTEN` and the cache lease when `url` is a transaction pooler.
   */
  | { readonly kind: 'postgres'; readonly url: string; readonly listenUrl?: string | null; readonly migrate: boolean }
  /** Embedded PGlite in a folder, or `':memory:'`. */
  | { readonly kind: 'pglite'; readonly dataDir: string };

/**
 * The server's configuration, parsed from the environment by {@link loadConfig}: every setting of
 * settings.ts under its key, except those composed into the fields below.
 */
export type Config = PlainSettings & {
  readonly production: boolean;
  readonly identity: IdentityConfig;
  readonly database: DatabaseConfig;
  readonly logFormat: 'json' | 'pretty';
  /** What the dashboard page at `/dashboard/` reads from `/dashboard/config.json`: how people sign in. */
  readonly dashboard: DashboardConfig;
  /** Where Prometheus metrics are served (docs/operations.md); never to the public unauthenticated. */
  readonly metrics: MetricsConfig;
  /**
   * Webhooks may be plain `http:` to loopback addresses: exactly where the development identity
   * provider may run, whichever provider is configured. Otherwise `https:` to public addresses only.
   */
  readonly webhookAllowLoopback: boolean;
  /** Mints per account per window: the key manager's `mintRateLimit`. */
  readonly mintRateLimit: { readonly max: number; readonly windowMs: number };
  /**
   * Failed authentications per client address per window; past it, a 429 for every credential
   * from that address until the window ends. `null` (the default): no limit.
   */
  readonly authFailureLimit: { readonly max: number; readonly windowMs: number } | null;
};

/**
 * `port`: the separate metrics listener (`null`: none), on `host`. `token`: when set, `GET
 * /metrics` on the public port too, for that bearer token only.
 */
export interface MetricsConfig {
  readonly port: number | null;
  readonly host: string;
  readonly token: string | null;
}

/**
 * Parses the environment (settings.ts) into a {@link Config}. Every problem is reported at once
 * in a {@link ConfigError}: the server refuses to start rather than run half-configured.
 */
export function loadConfig(env: Record<string, string | undefined>, options: { isTty?: boolean } = {}): Config {
  const s = parseSettings(env);
  const problems: string[] = [];
  // Anything but unset, empty, `development` or `test` counts as production: fail closed.
  const production = !devIdentityAllowed(s.nodeEnv ?? undefined);
  const identity = identityOf(s, production, problems);

  const database: DatabaseConfig =
    s.databaseUrl !== null
      ? { kind: 'postgres', url: s.databaseUrl, listenUrl: s.databaseListenUrl, migrate: s.databaseMigrate !== 'off' }
      : { kind: 'pglite', dataDir: s.dataDir ?? DEFAULT_DATA_DIR };
  if (s.databaseListenUrl !== null && s.databaseUrl === null) problems.push(`${ENV.databaseListenUrl} needs ${ENV.databaseUrl}`);
  if (s.databaseUrl !== null && s.dataDir !== null) {
    problems.push(`set either ${ENV.databaseUrl} (PostgreSQL) or ${ENV.dataDir} (embedded PGlite), not both`);
  }
  if (s.dropsOrigin !== null && s.publicUrl !== null && new URL(s.publicUrl).host.toLowerCase() === s.dropsOrigin.host) {
    problems.push(`${ENV.dropsOrigin} must be another host than ${ENV.publicUrl}: drops must never share the API origin`);
  }
  if (s.requestTimeoutMs < s.headersTimeoutMs) problems.push(`${ENV.requestTimeoutMs} must be at least ${ENV.headersTimeoutMs}`);
  if (s.maxDropBytes < s.maxBodyBytes) problems.push(`${ENV.maxDropBytes} must be at least ${ENV.maxBodyBytes}`);

  let dashboard: DashboardConfig = { identity: { mode: 'dev' } };
  try {
    dashboard = dashboardConfig(identity, env, { mintMaxAuthAgeSeconds: s.mintMaxAuthAgeSeconds });
  } catch (error) {
    problems.push((error as Error).message);
  }

  if (s.authFailureWindowMs !== null && s.authFailureLimit === null) {
    problems.push(`${ENV.authFailureWindowMs}: set ${ENV.authFailureLimit} too (the failed-authentication limit is off without it)`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    ...plainSettings(s),
    production,
    identity,
    dashboard,
    database,
    logFormat: s.logFormat ?? (options.isTty === true && !production ? 'pretty' : 'json'),
    metrics: {
      // A server on a free port (tests, benches) takes a free metrics port too, never a fixed one.
      port: s.metricsPort === 'off' ? null : (s.metricsPort ?? (s.port === 0 ? 0 : DEFAULT_METRICS_PORT)),
      host: s.metricsHost,
      token: s.metricsToken,
    },
    webhookAllowLoopback: !production && (s.databaseUrl === null || s.devIdentityProvider === 'on'),
    mintRateLimit: { max: s.mintRateLimit, windowMs: s.mintRateWindowMs },
    authFailureLimit:
      s.authFailureLimit === null
        ? null
        : { max: s.authFailureLimit, windowMs: s.authFailureWindowMs ?? DEFAULT_AUTH_FAILURE_WINDOW_SECONDS * 1000 },
  };
}

const OIDC = ['authIssuer', 'authAudience', 'authJwksUrl'] as const;

/** The identity provider the settings name, or a problem: one of two providers, never both or half of one. */
function identityOf(s: Settings, production: boolean, problems: string[]): IdentityConfig {
  const oidcSet = OIDC.filter((key) => s[key] !== null);
  if (s.firebaseProjectId !== null && oidcSet.length > 0) {
    problems.push(`set either ${ENV.firebaseProjectId} or ${OIDC.map((key) => ENV[key]).join('/')}, not both`);
  } else if (s.firebaseProjectId !== null) {
    return { kind: 'firebase', projectId: s.firebaseProjectId };
  } else if (s.authIssuer !== null && s.authAudience !== null && s.authJwksUrl !== null) {
    return { kind: 'oidc', issuer: s.authIssuer, audience: s.authAudience, jwksUrl: s.authJwksUrl };
  } else if (oidcSet.length > 0) {
    const missing = OIDC.filter((key) => s[key] === null).map((key) => ENV[key]);
    problems.push(`${OIDC_VARIABLES} go together; missing ${missing.join(', ')}`);
  } else if (production) {
    problems.push(devIdentityRefusal(s.nodeEnv ?? undefined));
  } else if (s.databaseUrl !== null && s.devIdentityProvider !== 'on') {
    problems.push(devIdentityOnDatabaseRefusal());
  }
  return { kind: 'dev' };
}
