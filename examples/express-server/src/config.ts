import { createGitHubSecretScanning, GITHUB_SECRET_SCANNING_KEYS_URL } from '@drops/auth';
import { dashboardConfig, type DashboardConfig } from '@drops/example-dashboard';
import { isIP } from 'node:net';
import { DEFAULT_WEBHOOK_RETRY_SECONDS } from '@drops/auth-postgres';
import { z } from 'zod';
import { devIdentityAllowed, devIdentityRefusal, devIdentityOnDatabaseRefusal } from './identity/dev-identity-allowed.js';
import { parseDropsOrigin, type DropsOrigin } from './user-content/drops-origin.js';

/** Where the ID tokens come from. */
export type IdentityConfig =
  | { readonly kind: 'firebase'; readonly projectId: string }
  | { readonly kind: 'oidc'; readonly issuer: string; readonly audience: readonly string[]; readonly jwksUrl: string }
  /** The built-in development identity provider (`POST /dev/token`); never in production. */
  | { readonly kind: 'dev' };

/** Where keys, drops, vanity names and plans are kept. */
export type DatabaseConfig =
  /** `migrate: false` (`DATABASE_MIGRATE=off`): no DDL at start; a schema missing or behind refuses to start. */
  | { readonly kind: 'postgres'; readonly url: string; readonly migrate: boolean }
  /** Embedded PGlite in a folder, or `':memory:'`. */
  | { readonly kind: 'pglite'; readonly dataDir: string };

/** The server's configuration, parsed from the environment by {@link loadConfig}. */
export interface Config {
  readonly port: number;
  readonly host: string;
  /** Base of drop URLs in responses; default: the origin the request was made to. */
  readonly publicUrl: string | null;
  /**
   * `DROPS_ORIGIN`: the separate origin drop content is served on, and the base of drop URLs
   * (over `publicUrl`). `null`: drops are served on the API's origin, sandboxed.
   */
  readonly dropsOrigin: DropsOrigin | null;
  readonly production: boolean;
  readonly identity: IdentityConfig;
  readonly database: DatabaseConfig;
  /** Largest request body (a deploy or an append), in bytes. */
  readonly maxBodyBytes: number;
  /** Largest drop after appends, in bytes. */
  readonly maxDropBytes: number;
  /** Anonymous `POST /deploy` per client address per window. */
  readonly anonymousDeployLimit: number;
  readonly anonymousDeployWindowMs: number;
  /**
   * Express `trust proxy` setting: which `X-Forwarded-For` hops to believe for the client address,
   * a hop count or a list of proxy addresses/subnets (never "any": `TRUST_PROXY=true` is refused).
   */
  readonly trustProxy: false | number | string;
  /** IPv6 clients share a rate limit (and the per-client connection cap) per network of this many bits. */
  readonly ipv6PrefixLength: number;
  /** Node's `headersTimeout` and `requestTimeout` (the whole request, body included), in ms. */
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /** Open connections in all, and per client address (IPv6 per network): past either, a 503. */
  readonly maxConnections: number;
  readonly maxConnectionsPerClient: number;
  /** `POST /secret-scanning/github` per client address per window. */
  readonly secretScanningLimit: number;
  readonly secretScanningWindowMs: number;
  readonly logLevel: string;
  readonly logFormat: 'json' | 'pretty';
  readonly sweepIntervalMs: number;
  readonly shutdownTimeoutMs: number;
  /** Active API keys one account may hold (`MAX_KEYS_PER_ACCOUNT`); a mint over it is a 409. */
  readonly maxKeysPerAccount: number;
  /** What the dashboard page at `/dashboard/` reads from `/dashboard/config.json`: how people sign in. */
  readonly dashboard: DashboardConfig;
  /** Where Prometheus metrics are served (docs/operations.md); never to the public unauthenticated. */
  readonly metrics: MetricsConfig;
  /** `GITHUB_SECRET_SCANNING_KEYS_URL`: GitHub's secret scanning public keys, for `POST /secret-scanning/github`. */
  readonly secretScanningKeysUrl: string;
  /** `MINT_MAX_AUTH_AGE_SECONDS`: `POST /keys` needs a login (`auth_time`) at most this old; `null`: no limit. */
  readonly mintMaxAuthAgeSeconds: number | null;
  /** `MAX_KEY_LIFETIME_DAYS`: the longest any key lives (mint and roll); `null`: no limit. */
  readonly maxKeyLifetimeDays: number | null;
  /** `WEBHOOK_RETRY_SECONDS`: delays between webhook delivery attempts, in seconds. */
  readonly webhookRetrySeconds: readonly number[];
  /**
   * Webhooks may be plain `http:` to loopback addresses: exactly where the development identity
   * provider may run (`NODE_ENV` unset, `development` or `test`, and PGlite or
   * `DEV_IDENTITY_PROVIDER=on` beside `DATABASE_URL`), whichever provider is configured. Otherwise
   * `https:` to public addresses only.
   */
  readonly webhookAllowLoopback: boolean;
  /** Mints per account per window (`MINT_RATE_LIMIT`, `MINT_RATE_WINDOW_SECONDS`): the key manager's `mintRateLimit`. */
  readonly mintRateLimit: { readonly max: number; readonly windowMs: number };
  /** `POST /credentials/revoke` per client address per window (`REVOKE_BY_VALUE_LIMIT`, `REVOKE_BY_VALUE_WINDOW_SECONDS`). */
  readonly revokeByValueLimit: number;
  readonly revokeByValueWindowMs: number;
  /**
   * Failed authentications per client address per window (`AUTH_FAILURE_LIMIT`,
   * `AUTH_FAILURE_WINDOW_SECONDS`); past it, a 429 for every credential from that address until the
   * window ends. `null` (the default): no limit.
   */
  readonly authFailureLimit: { readonly max: number; readonly windowMs: number } | null;
}

/** Longest `MINT_MAX_AUTH_AGE_SECONDS`: a year. */
const MAX_AUTH_AGE_SECONDS = 365 * 24 * 3600;

/**
 * `port`: the separate metrics listener (`METRICS_PORT`, default 9464, or a free port when `PORT`
 * is 0; `null` for `METRICS_PORT=off`), on `host` (`METRICS_HOST`, default loopback). `token`:
 * when set (`METRICS_TOKEN`), `GET /metrics` on the public port too, for that bearer token only.
 */
export interface MetricsConfig {
  readonly port: number | null;
  readonly host: string;
  readonly token: string | null;
}

/** The configuration is unusable; `message` lists every problem, one per line. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const MiB = 1024 * 1024;

// Unset and empty variables are the same thing.
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());
const integer = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const envSchema = z.object({
  PORT: optional(integer(0, 65_535)),
  HOST: optional(z.string()),
  PUBLIC_URL: optional(z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ''))),
  // Not optional(): compared exactly, untrimmed (identity/dev-identity-allowed.ts).
  NODE_ENV: z.string().optional(),
  DROPS_ORIGIN: optional(z.string()),
  FIREBASE_PROJECT_ID: optional(z.string().regex(/^[a-z0-9][a-z0-9-]{4,28}[a-z0-9]$/, 'not a Firebase project id')),
  AUTH_ISSUER: optional(z.string()),
  AUTH_AUDIENCE: optional(z.string()),
  AUTH_JWKS_URL: optional(z.url()),
  DATABASE_URL: optional(z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')),
  DATA_DIR: optional(z.string()),
  DATABASE_MIGRATE: optional(z.enum(['on', 'off'])),
  DEV_IDENTITY_PROVIDER: optional(z.enum(['on', 'off'])),
  MAX_BODY_BYTES: optional(integer(1, 1024 * MiB)),
  MAX_DROP_BYTES: optional(integer(1, 1024 * MiB)),
  ANON_DEPLOY_LIMIT: optional(integer(1, 1_000_000)),
  ANON_DEPLOY_WINDOW_SECONDS: optional(integer(1, 86_400)),
  MINT_RATE_LIMIT: optional(integer(1, 1_000_000)),
  MINT_RATE_WINDOW_SECONDS: optional(integer(1, 86_400 * 30)),
  REVOKE_BY_VALUE_LIMIT: optional(integer(1, 1_000_000)),
  REVOKE_BY_VALUE_WINDOW_SECONDS: optional(integer(1, 86_400)),
  AUTH_FAILURE_LIMIT: optional(integer(1, 1_000_000)),
  AUTH_FAILURE_WINDOW_SECONDS: optional(integer(1, 86_400)),
  TRUST_PROXY: optional(z.string().transform((v, ctx) => trustProxyOf(v, ctx))),
  IPV6_PREFIX_LENGTH: optional(integer(1, 128)),
  HEADERS_TIMEOUT_SECONDS: optional(integer(1, 600)),
  REQUEST_TIMEOUT_SECONDS: optional(integer(1, 3600)),
  MAX_CONNECTIONS: optional(integer(1, 1_000_000)),
  MAX_CONNECTIONS_PER_CLIENT: optional(integer(1, 1_000_000)),
  SECRET_SCANNING_LIMIT: optional(integer(1, 1_000_000)),
  SECRET_SCANNING_WINDOW_SECONDS: optional(integer(1, 86_400)),
  LOG_LEVEL: optional(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])),
  LOG_FORMAT: optional(z.enum(['json', 'pretty'])),
  SWEEP_INTERVAL_SECONDS: optional(integer(1, 86_400)),
  SHUTDOWN_TIMEOUT_MS: optional(integer(0, 600_000)),
  MAX_KEYS_PER_ACCOUNT: optional(integer(1, 1_000_000)),
  METRICS_PORT: optional(z.union([z.literal('off'), integer(0, 65_535)])),
  METRICS_HOST: optional(z.string()),
  METRICS_TOKEN: optional(
    z
      .string()
      .min(16, 'must be at least 16 characters')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
  ),
  GITHUB_SECRET_SCANNING_KEYS_URL: optional(
    z.string().refine(isAllowedKeysUrl, 'must be an https: URL (plain http: only for 127.0.0.0/8, localhost or [::1], for tests)'),
  ),
  MAX_KEY_LIFETIME_DAYS: optional(
    z
      .string()
      .regex(/^\d+$/, 'must be a whole number of days, such as 90 (unset: no limit)')
      .transform(Number)
      .pipe(z.number().min(1, 'must be at least 1 day (unset it for no limit)').max(36_500, 'must be at most 36500 (a century)')),
  ),
  WEBHOOK_RETRY_SECONDS: optional(
    z
      .string()
      .regex(/^\d+(,\d+){0,19}$/, 'must be a comma list of at most 20 whole numbers of seconds, such as 5,300,1800')
      .transform((v) => v.split(',').map(Number))
      .pipe(z.array(z.number().max(604_800, 'each delay must be at most 604800 seconds (a week)'))),
  ),
  MINT_MAX_AUTH_AGE_SECONDS: optional(
    z
      .string()
      .regex(/^\d+$/, 'must be a whole number of seconds, such as 300 (unset: no limit)')
      .transform(Number)
      .pipe(
        z
          .number()
          .min(1, 'must be at least 1 second (unset it for no limit)')
          .max(MAX_AUTH_AGE_SECONDS, `must be at most ${MAX_AUTH_AGE_SECONDS} (a year)`),
      ),
  ),
});

// The secret scanning key list decides which alerts revoke keys: fetched over HTTPS, as a JWKS is.
// Asked of the library itself (it fetches nothing until the first alert), so start-up refuses
// exactly what it would refuse.
function isAllowedKeysUrl(value: string): boolean {
  try {
    createGitHubSecretScanning({ keysUrl: value });
    return true;
  } catch {
    return false;
  }
}

const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

// A hop count, or a comma list of proxies (addresses, CIDR subnets, or proxy-addr's names):
// what Express's `trust proxy` (proxy-addr) believes. `true` would believe any X-Forwarded-For,
// so a client could pick its own address (and rate-limit bucket): refused.
function trustProxyOf(value: string, ctx: z.RefinementCtx): false | number | string {
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  if (entries.every(isTrustedProxyEntry)) return entries.join(', ');
  ctx.addIssue({
    code: 'custom',
    message:
      'must be a hop count (such as 1) or a comma list of proxy addresses or subnets (such as 10.0.0.0/8, ::1, loopback); ' +
      '"true" is refused: it would believe any X-Forwarded-For',
  });
  return z.NEVER;
}

function isTrustedProxyEntry(entry: string): boolean {
  if (TRUST_PROXY_NAMES.has(entry)) return true;
  const [address, range, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d+$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4; // a netmask
}

/**
 * Parses the environment of DESIGN.md (plus operational settings) into a {@link Config}. Every
 * problem is reported at once in a {@link ConfigError}: the server refuses to start rather than
 * run half-configured.
 *
 * | var | default |
 * |---|---|
 * | `PORT`, `HOST` | `8787`, `127.0.0.1` |
 * | `FIREBASE_PROJECT_ID` or `AUTH_ISSUER` + `AUTH_AUDIENCE` + `AUTH_JWKS_URL` | the dev identity provider, only when `NODE_ENV` is unset, `development` or `test` (exact); otherwise a refusal |
 * | `DATABASE_URL` / `DATA_DIR` | PGlite in `.data` |
 * | `DATABASE_MIGRATE` | `on`: both migration sets at start (`off`: none; refuse a schema behind) |
 * | `DEV_IDENTITY_PROVIDER` | `on` lets the dev identity provider run beside `DATABASE_URL`; otherwise a refusal |
 * | `MAX_KEYS_PER_ACCOUNT` | `1000` |
 * | `GITHUB_SECRET_SCANNING_KEYS_URL` | GitHub's (`https:`; `http:` only on loopback) |
 * | `MINT_MAX_AUTH_AGE_SECONDS` | unset: any valid ID token may mint |
 * | `MAX_KEY_LIFETIME_DAYS` | unset: a key may expire at any future date, or never |
 * | `WEBHOOK_RETRY_SECONDS` | `5,300,1800,7200,18000,36000,36000`: delays between webhook delivery attempts |
 * | `MINT_RATE_LIMIT`, `MINT_RATE_WINDOW_SECONDS` | `60` per `3600` s per account |
 * | `REVOKE_BY_VALUE_LIMIT`, `REVOKE_BY_VALUE_WINDOW_SECONDS` | `60` per `3600` s per client address |
 * | `ANON_DEPLOY_LIMIT`, `ANON_DEPLOY_WINDOW_SECONDS` | `10` per `60` s per client address |
 * | `AUTH_FAILURE_LIMIT`, `AUTH_FAILURE_WINDOW_SECONDS` | off; `300` s when only the limit is set: failed authentications per client address, then a 429 |
 *
 * On PostgreSQL (`DATABASE_URL`) every limit above is counted in the database, shared by every
 * instance on it; on PGlite, in the process.
 * | `DROPS_ORIGIN` | drops served sandboxed on the API origin (set it in production) |
 * | `TRUST_PROXY` | off; a hop count or proxy addresses/subnets (`true` refused) |
 * | `IPV6_PREFIX_LENGTH` | `64`: IPv6 clients counted per /64 |
 * | `HEADERS_TIMEOUT_SECONDS`, `REQUEST_TIMEOUT_SECONDS` | `10`, `30` |
 * | `MAX_CONNECTIONS`, `MAX_CONNECTIONS_PER_CLIENT` | `768`, `256` |
 * | `SECRET_SCANNING_LIMIT`, `SECRET_SCANNING_WINDOW_SECONDS` | `600` per `60` s per client address |
 */
export function loadConfig(env: Record<string, string | undefined>, options: { isTty?: boolean } = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];
  // Anything but unset, empty, `development` or `test` counts as production: fail closed.
  const production = !devIdentityAllowed(e.NODE_ENV);

  const oidcVars = { AUTH_ISSUER: e.AUTH_ISSUER, AUTH_AUDIENCE: e.AUTH_AUDIENCE, AUTH_JWKS_URL: e.AUTH_JWKS_URL };
  const oidcSet = Object.entries(oidcVars).filter(([, v]) => v !== undefined);
  let identity: IdentityConfig = { kind: 'dev' };
  if (e.FIREBASE_PROJECT_ID !== undefined && oidcSet.length > 0) {
    problems.push('set either FIREBASE_PROJECT_ID or AUTH_ISSUER/AUTH_AUDIENCE/AUTH_JWKS_URL, not both');
  } else if (e.FIREBASE_PROJECT_ID !== undefined) {
    identity = { kind: 'firebase', projectId: e.FIREBASE_PROJECT_ID };
  } else if (oidcSet.length === 3) {
    const audience = e
      .AUTH_AUDIENCE!.split(',')
      .map((a) => a.trim())
      .filter((a) => a.length > 0);
    if (audience.length === 0) problems.push('AUTH_AUDIENCE: must name at least one audience');
    identity = { kind: 'oidc', issuer: e.AUTH_ISSUER!, audience, jwksUrl: e.AUTH_JWKS_URL! };
  } else if (oidcSet.length > 0) {
    const missing = Object.keys(oidcVars).filter((k) => !oidcSet.some(([name]) => name === k));
    problems.push(`AUTH_ISSUER, AUTH_AUDIENCE and AUTH_JWKS_URL go together; missing ${missing.join(', ')}`);
  } else if (production) {
    problems.push(devIdentityRefusal(e.NODE_ENV));
  } else if (e.DATABASE_URL !== undefined && e.DEV_IDENTITY_PROVIDER !== 'on') {
    problems.push(devIdentityOnDatabaseRefusal());
  }

  const database: DatabaseConfig =
    e.DATABASE_URL !== undefined
      ? { kind: 'postgres', url: e.DATABASE_URL, migrate: e.DATABASE_MIGRATE !== 'off' }
      : { kind: 'pglite', dataDir: e.DATA_DIR ?? '.data' };
  if (e.DATABASE_URL !== undefined && e.DATA_DIR !== undefined) {
    problems.push('set either DATABASE_URL (PostgreSQL) or DATA_DIR (embedded PGlite), not both');
  }

  let dropsOrigin: DropsOrigin | null = null;
  if (e.DROPS_ORIGIN !== undefined) {
    const parsedOrigin = parseDropsOrigin(e.DROPS_ORIGIN);
    if (typeof parsedOrigin === 'string') problems.push(parsedOrigin);
    else if (e.PUBLIC_URL !== undefined && new URL(e.PUBLIC_URL).host.toLowerCase() === parsedOrigin.host) {
      problems.push('DROPS_ORIGIN must be another host than PUBLIC_URL: drops must never share the API origin');
    } else dropsOrigin = parsedOrigin;
  }

  const headersTimeoutMs = (e.HEADERS_TIMEOUT_SECONDS ?? 10) * 1000;
  const requestTimeoutMs = (e.REQUEST_TIMEOUT_SECONDS ?? 30) * 1000;
  if (requestTimeoutMs < headersTimeoutMs) problems.push('REQUEST_TIMEOUT_SECONDS must be at least HEADERS_TIMEOUT_SECONDS');

  const maxBodyBytes = e.MAX_BODY_BYTES ?? 10 * MiB;
  const maxDropBytes = e.MAX_DROP_BYTES ?? 100 * MiB;
  if (maxDropBytes < maxBodyBytes) problems.push('MAX_DROP_BYTES must be at least MAX_BODY_BYTES');

  let dashboard: DashboardConfig = { identity: { mode: 'dev' } };
  try {
    dashboard = dashboardConfig(identity, env, { mintMaxAuthAgeSeconds: e.MINT_MAX_AUTH_AGE_SECONDS ?? null });
  } catch (error) {
    problems.push((error as Error).message);
  }

  if (e.AUTH_FAILURE_WINDOW_SECONDS !== undefined && e.AUTH_FAILURE_LIMIT === undefined) {
    problems.push('AUTH_FAILURE_WINDOW_SECONDS: set AUTH_FAILURE_LIMIT too (the failed-authentication limit is off without it)');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port: e.PORT ?? 8787,
    host: e.HOST ?? '127.0.0.1',
    publicUrl: e.PUBLIC_URL ?? null,
    dropsOrigin,
    production,
    identity,
    dashboard,
    database,
    maxBodyBytes,
    maxDropBytes,
    anonymousDeployLimit: e.ANON_DEPLOY_LIMIT ?? 10,
    anonymousDeployWindowMs: (e.ANON_DEPLOY_WINDOW_SECONDS ?? 60) * 1000,
    trustProxy: e.TRUST_PROXY ?? false,
    ipv6PrefixLength: e.IPV6_PREFIX_LENGTH ?? 64,
    headersTimeoutMs,
    requestTimeoutMs,
    maxConnections: e.MAX_CONNECTIONS ?? 768,
    maxConnectionsPerClient: e.MAX_CONNECTIONS_PER_CLIENT ?? 256,
    secretScanningLimit: e.SECRET_SCANNING_LIMIT ?? 600,
    secretScanningWindowMs: (e.SECRET_SCANNING_WINDOW_SECONDS ?? 60) * 1000,
    logLevel: e.LOG_LEVEL ?? 'info',
    logFormat: e.LOG_FORMAT ?? (options.isTty === true && !production ? 'pretty' : 'json'),
    sweepIntervalMs: (e.SWEEP_INTERVAL_SECONDS ?? 60) * 1000,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS ?? 10_000,
    maxKeysPerAccount: e.MAX_KEYS_PER_ACCOUNT ?? 1000,
    metrics: {
      // A server on a free port (tests, benches) takes a free metrics port too, never a fixed one.
      port: e.METRICS_PORT === 'off' ? null : (e.METRICS_PORT ?? (e.PORT === 0 ? 0 : 9464)),
      host: e.METRICS_HOST ?? '127.0.0.1',
      token: e.METRICS_TOKEN ?? null,
    },
    secretScanningKeysUrl: e.GITHUB_SECRET_SCANNING_KEYS_URL ?? GITHUB_SECRET_SCANNING_KEYS_URL,
    mintMaxAuthAgeSeconds: e.MINT_MAX_AUTH_AGE_SECONDS ?? null,
    maxKeyLifetimeDays: e.MAX_KEY_LIFETIME_DAYS ?? null,
    webhookRetrySeconds: e.WEBHOOK_RETRY_SECONDS ?? DEFAULT_WEBHOOK_RETRY_SECONDS,
    webhookAllowLoopback: !production && (e.DATABASE_URL === undefined || e.DEV_IDENTITY_PROVIDER === 'on'),
    mintRateLimit: { max: e.MINT_RATE_LIMIT ?? 60, windowMs: (e.MINT_RATE_WINDOW_SECONDS ?? 3600) * 1000 },
    revokeByValueLimit: e.REVOKE_BY_VALUE_LIMIT ?? 60,
    revokeByValueWindowMs: (e.REVOKE_BY_VALUE_WINDOW_SECONDS ?? 3600) * 1000,
    authFailureLimit:
      e.AUTH_FAILURE_LIMIT === undefined ? null : { max: e.AUTH_FAILURE_LIMIT, windowMs: (e.AUTH_FAILURE_WINDOW_SECONDS ?? 300) * 1000 },
  };
}
