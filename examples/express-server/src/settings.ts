import { GITHUB_SECRET_SCANNING_KEYS_URL as GITHUB_KEYS_URL } from '@drops/auth';
import { DEFAULT_WEBHOOK_RETRY_SECONDS } from '@drops/auth-postgres';
import { z } from 'zod';
import { ConfigError } from './config-error.js';
import * as p from './setting-parsers.js';

/**
 * One environment variable of the reference server. Its value is parsed by `parse` (a failure is a
 * refusal line naming the variable); unset, or empty, it is `default` parsed the same way, else `null`.
 */
export interface Setting {
  readonly env: string;
  readonly parse: z.ZodType;
  /** The value when unset, written as in the environment. */
  readonly default?: string;
  /** What unset means, for the docs, when there is no `default`. */
  readonly unset?: string;
  /** What it does, for the docs (Markdown); `{{key}}` names the variable of the setting `key`. */
  readonly meaning: string;
  /** Compared exactly, untrimmed: an empty value is a value, not unset. */
  readonly exact?: true;
  /** Read by `loadConfig` into another field of `Config`, not a field of its own. */
  readonly composed?: true;
}

/** The `metrics.port` when `{{metricsPort}}` is unset and `{{port}}` is not `0`. */
export const DEFAULT_METRICS_PORT = 9464;
/** The PGlite folder when neither `{{dataDir}}` nor `{{databaseUrl}}` is set. */
export const DEFAULT_DATA_DIR = '.data';
/** The `authFailureLimit.windowMs`, in seconds, when only `{{authFailureLimit}}` is set. */
export const DEFAULT_AUTH_FAILURE_WINDOW_SECONDS = 300;

/**
 * The reference server's settings: every variable it reads, once. A key that is not `composed` is
 * a field of `Config` as parsed. docs/reference-server.md's table is written from it
 * (settings-docs.ts).
 */
export const SETTINGS = {
  port: { env: 'PORT', parse: p.integer(0, 65_535), default: '8787', meaning: 'listen port (`0`: any free port)' },
  host: { env: 'HOST', parse: z.string(), default: '127.0.0.1', meaning: 'listen address' },
  firebaseProjectId: {
    env: 'FIREBASE_PROJECT_ID',
    parse: z.string().regex(/^[a-z0-9][a-z0-9-]{4,28}[a-z0-9]$/, 'not a Firebase project id'),
    meaning: 'Firebase Authentication ID tokens (`firebase({ projectId })` preset)',
    composed: true,
  },
  authIssuer: {
    env: 'AUTH_ISSUER',
    parse: z.string(),
    meaning: 'any RS256 identity provider: its issuer (`{{authIssuer}}`, `{{authAudience}}` and `{{authJwksUrl}}` go together)',
    composed: true,
  },
  authAudience: {
    env: 'AUTH_AUDIENCE',
    parse: p.audiences(),
    meaning: 'the audience its ID tokens carry, or a comma-separated list',
    composed: true,
  },
  authJwksUrl: {
    env: 'AUTH_JWKS_URL',
    parse: z.url(),
    meaning: 'its key set: `https:` (plain `http:` only on loopback)',
    composed: true,
  },
  databaseUrl: {
    env: 'DATABASE_URL',
    parse: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL'),
    meaning: 'PostgreSQL (`postgres://…`); several instances may share it',
    composed: true,
  },
  databaseListenUrl: {
    env: 'DATABASE_LISTEN_URL',
    parse: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL'),
    unset: 'all on `{{databaseUrl}}`',
    meaning:
      'a direct (or session-mode) URL of the same database for the connections that `LISTEN` and hold the cache lease, ' +
      "when `{{databaseUrl}}` goes through a transaction-mode pooler (PgBouncer, Supabase's or Neon's pooled URL, RDS " +
      'Proxy: [postgres](postgres.md#poolers)). Without it behind such a pooler the server refuses to start, naming this variable',
    composed: true,
  },
  devIdentityProvider: {
    env: 'DEV_IDENTITY_PROVIDER',
    parse: p.onOff(),
    unset: 'refused beside `{{databaseUrl}}`',
    meaning:
      '`on` lets the development identity provider run beside `{{databaseUrl}}`: say so only for a database that is for ' +
      'development (without it, `{{databaseUrl}}` and no identity provider refuse to start, naming this variable). Its ' +
      "accounts are `dev:<name>` whatever it is set to, and a real provider's token whose subject starts with `dev:` " +
      'is the 401, so the two never meet on a shared database',
    composed: true,
  },
  dataDir: {
    env: 'DATA_DIR',
    parse: z.string(),
    unset: `\`${DEFAULT_DATA_DIR}\``,
    meaning:
      'embedded PGlite folder, created if missing; `:memory:` for a database that ends with the process (for tests: [slower](postgres.md#what-the-embedded-default-is-for-and-where-it-stops) in some processes). Not together with `{{databaseUrl}}`',
    composed: true,
  },
  databaseMigrate: {
    env: 'DATABASE_MIGRATE',
    parse: p.onOff(),
    default: 'on',
    meaning:
      '`off`: run no DDL at start (the runtime role may hold no CREATE right); a missing or older schema refuses to ' +
      'start, naming `drops-auth-postgres migrate`. Migrate first with `pnpm --filter @drops/example-express-server run ' +
      "migrate` (the key store's and the server's tables) or `drops-auth-postgres migrate` plus the server's; see " +
      '[postgres](postgres.md#production)',
    composed: true,
  },
  nodeEnv: {
    env: 'NODE_ENV',
    parse: z.string(),
    exact: true,
    meaning:
      'compared exactly, untrimmed: unset (or empty), `development` or `test` allow the development identity provider; ' +
      'any other value (`production`, `PRODUCTION`, `prod`, `production `, `staging`, …) is treated as production, and ' +
      'the server will not start without a real identity provider',
    composed: true,
  },
  dropsOrigin: {
    env: 'DROPS_ORIGIN',
    parse: p.dropsOrigin(),
    unset: "drops are served sandboxed on the API's origin",
    meaning:
      'the separate origin drop content is served on, e.g. `https://drops-content.example.net`: `https:` (plain ' +
      '`http:` only on a loopback host), an origin only (no path), another host than `{{publicUrl}}`. **Set it in ' +
      'production** (see [User content](#user-content))',
  },
  publicUrl: {
    env: 'PUBLIC_URL',
    parse: z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, '')),
    unset: 'the origin the request was made to',
    meaning: 'origin used in the `url` of drops and vanity names when `{{dropsOrigin}}` is unset',
  },
  maxBodyBytes: {
    env: 'MAX_BODY_BYTES',
    parse: p.integer(1, 1024 * p.MiB),
    default: String(10 * p.MiB),
    meaning: 'largest request body of a deploy or append; over it `413`',
  },
  maxDropBytes: {
    env: 'MAX_DROP_BYTES',
    parse: p.integer(1, 1024 * p.MiB),
    default: String(100 * p.MiB),
    meaning: 'largest drop after appends; over it `413`',
  },
  anonymousDeployLimit: {
    env: 'ANON_DEPLOY_LIMIT',
    parse: p.integer(1, 1_000_000),
    default: '10',
    meaning:
      'anonymous `POST /deploy` per client address per `{{anonymousDeployWindowMs}}` (shared by every instance on ' +
      'PostgreSQL); over it `429 {error}` + `Retry-After`',
  },
  anonymousDeployWindowMs: {
    env: 'ANON_DEPLOY_WINDOW_SECONDS',
    parse: p.secondsAsMs(1, 86_400),
    default: '60',
    meaning: 'its window, in seconds',
  },
  trustProxy: {
    env: 'TRUST_PROXY',
    parse: p.trustProxy(),
    default: 'false',
    meaning:
      'Express `trust proxy` (proxy-addr), so the rate limits see the real client address: preferably a comma list of your ' +
      "proxies' addresses or subnets (`10.0.0.0/8, ::1`, or `loopback`, `linklocal`, `uniquelocal`), trusted only when " +
      "they are the ones connecting; or a hop count (`1`: the address the last hop appended is the client's). A hop " +
      'count trusts whoever connects: a client that reaches the port directly, not through the proxy, writes ' +
      '`X-Forwarded-For` itself and picks its address for every per-client limit, so use one only where nothing but ' +
      'the proxy can connect (the server warns once at start). `true` is refused: it would believe any `X-Forwarded-For`',
  },
  ipv6PrefixLength: {
    env: 'IPV6_PREFIX_LENGTH',
    parse: p.integer(1, 128),
    default: '64',
    meaning:
      'IPv6 clients share every limit per client address (revoke by value, anonymous deploy, secret scanning alerts, ' +
      'failed authentications, the connection cap) per network of this many bits (1 to 128)',
  },
  headersTimeoutMs: {
    env: 'HEADERS_TIMEOUT_SECONDS',
    parse: p.secondsAsMs(1, 600),
    default: '10',
    meaning: "time to receive a request's headers; past it `408` and the connection is closed (checked every second)",
  },
  requestTimeoutMs: {
    env: 'REQUEST_TIMEOUT_SECONDS',
    parse: p.secondsAsMs(1, 3600),
    default: '30',
    meaning: 'time to receive the whole request with its body, at least `{{headersTimeoutMs}}`; past it as above',
  },
  maxConnections: {
    env: 'MAX_CONNECTIONS',
    parse: p.integer(1, 1_000_000),
    default: '768',
    meaning:
      'open connections in all; past it a new connection is answered `503` + `Retry-After` before any of its request is ' +
      "read, and closed. Keep it below the process's descriptor limit (`ulimit -n`) less the database pool and a quarter " +
      'of it more (refused connections linger up to a second, a quarter of `{{maxConnections}}` at most, so the client ' +
      'reads the 503 rather than a reset)',
  },
  maxConnectionsPerClient: {
    env: 'MAX_CONNECTIONS_PER_CLIENT',
    parse: p.integer(1, 1_000_000),
    default: '256',
    meaning:
      'open connections per client socket address (IPv6 per `{{ipv6PrefixLength}}` network); past it a new one is answered ' +
      '`503` + `Retry-After` and closed, as above. Behind a proxy this counts the proxy: raise it',
  },
  secretScanningLimit: {
    env: 'SECRET_SCANNING_LIMIT',
    parse: p.integer(1, 1_000_000),
    default: '600',
    meaning:
      '`POST /secret-scanning/github` per client address per `{{secretScanningWindowMs}}` (shared by every instance on ' +
      'PostgreSQL), counted before the body is read; over it `429` + `Retry-After`',
  },
  secretScanningWindowMs: {
    env: 'SECRET_SCANNING_WINDOW_SECONDS',
    parse: p.secondsAsMs(1, 86_400),
    default: '60',
    meaning: 'its window, in seconds',
  },
  logLevel: {
    env: 'LOG_LEVEL',
    parse: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
    meaning: '`fatal` … `trace`, `silent`',
  },
  logFormat: {
    env: 'LOG_FORMAT',
    parse: z.enum(['json', 'pretty']),
    unset: '`pretty` on a terminal outside production, else `json`',
    meaning: '`json` or `pretty`',
    composed: true,
  },
  sweepIntervalMs: {
    env: 'SWEEP_INTERVAL_SECONDS',
    parse: p.secondsAsMs(1, 86_400),
    default: '60',
    meaning: 'how often expired drops are purged, in seconds',
  },
  shutdownTimeoutMs: {
    env: 'SHUTDOWN_TIMEOUT_MS',
    parse: p.integer(0, 600_000),
    default: '10000',
    meaning: 'how long SIGTERM waits for requests in flight before cutting them',
  },
  maxKeysPerAccount: {
    env: 'MAX_KEYS_PER_ACCOUNT',
    parse: p.integer(1, 1_000_000),
    default: '1000',
    meaning: 'active API keys one account may hold; a mint over it is `409 {"error", "limit"}`, revoking a key frees a slot',
  },
  metricsPort: {
    env: 'METRICS_PORT',
    parse: z.union([z.literal('off'), p.integer(0, 65_535)]),
    unset: `\`${DEFAULT_METRICS_PORT}\` (a free port when \`{{port}}=0\`)`,
    meaning: 'a separate listener for Prometheus `GET /metrics` ([operations](operations.md)); `off` for none',
    composed: true,
  },
  metricsHost: {
    env: 'METRICS_HOST',
    parse: z.string(),
    default: '127.0.0.1',
    meaning: 'its address',
    composed: true,
  },
  metricsToken: {
    env: 'METRICS_TOKEN',
    parse: z
      .string()
      .min(16, 'must be at least 16 characters')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
    meaning:
      'also serve `GET /metrics` on the public port to `Authorization: Bearer <token>` (≥ 16 characters); anyone else ' +
      'gets the plain `404`',
    composed: true,
  },
  secretScanningKeysUrl: {
    env: 'GITHUB_SECRET_SCANNING_KEYS_URL',
    parse: p.secretScanningKeysUrl(),
    default: GITHUB_KEYS_URL,
    meaning:
      "GitHub's list of the keys that sign secret scanning alerts, for `POST /secret-scanning/github` (GitHub Enterprise " +
      'Server: `https://<host>/api/v3/meta/public_keys/secret_scanning`); `https:` (plain `http:` only for 127.0.0.0/8, ' +
      '`localhost` or `[::1]`, for tests). Fetched on the first alert, cached an hour',
  },
  maxKeyLifetimeDays: {
    env: 'MAX_KEY_LIFETIME_DAYS',
    parse: p.optionalLimit('day', 90, 36_500, 'a century'),
    unset: 'any future expiry, or none',
    meaning:
      'when set, the longest any key lives (1 to 36500 days): a `POST /keys` `expiresAt` further ahead is a JSON 400, ' +
      "and a mint without one or a roll's new key expires this many days ahead",
  },
  webhookRetrySeconds: {
    env: 'WEBHOOK_RETRY_SECONDS',
    parse: p.retryDelays(),
    default: DEFAULT_WEBHOOK_RETRY_SECONDS.join(','),
    meaning:
      'delays between webhook delivery attempts, a comma list of whole seconds (at most 20, each at most 604800); after ' +
      'the last, the delivery is never sent again, and is kept 30 days as `failed` in `GET /keys/webhook` ' +
      '([webhooks](webhooks.md)). Endpoints are `https:`; loopback `http:` only where the development identity ' +
      'provider may run (`{{nodeEnv}}` unset, `development` or `test`, with PGlite or `{{devIdentityProvider}}=on`)',
  },
  mintMaxAuthAgeSeconds: {
    env: 'MINT_MAX_AUTH_AGE_SECONDS',
    parse: p.optionalLimit('second', 300, p.MAX_AUTH_AGE_SECONDS, 'a year'),
    unset: 'any valid ID token mints',
    meaning:
      'when set, `POST /keys` needs an ID token whose `auth_time` is at most this many seconds old (1 to 31536000); an ' +
      'older sign-in gets the uniform 401 and the dashboard asks to sign in again',
  },
  mintRateLimit: {
    env: 'MINT_RATE_LIMIT',
    parse: p.integer(1, 1_000_000),
    default: '60',
    meaning: 'mints per account per `{{mintRateWindowMs}}` (shared by every instance on PostgreSQL); over it `429` + `Retry-After`',
    composed: true,
  },
  mintRateWindowMs: {
    env: 'MINT_RATE_WINDOW_SECONDS',
    parse: p.secondsAsMs(1, 86_400 * 30),
    default: '3600',
    meaning: 'its window, in seconds',
    composed: true,
  },
  revokeByValueLimit: {
    env: 'REVOKE_BY_VALUE_LIMIT',
    parse: p.integer(1, 1_000_000),
    default: '60',
    meaning:
      '`POST /credentials/revoke` per client address per `{{revokeByValueWindowMs}}` (shared by every instance on ' +
      'PostgreSQL); over it `429` + `Retry-After`',
  },
  revokeByValueWindowMs: {
    env: 'REVOKE_BY_VALUE_WINDOW_SECONDS',
    parse: p.secondsAsMs(1, 86_400),
    default: '3600',
    meaning: 'its window, in seconds',
  },
  authFailureLimit: {
    env: 'AUTH_FAILURE_LIMIT',
    parse: p.integer(1, 1_000_000),
    unset: 'off',
    meaning:
      'failed authentications (any uniform 401: unknown, revoked, expired, malformed, counted alike) per client address ' +
      'per `{{authFailureWindowMs}}` (shared by every instance on PostgreSQL). Past it, every request from that address ' +
      'that carries a credential, a valid one included, gets one `429 {error}` + `Retry-After` in the same bytes until ' +
      'the window ends, answered from memory. A request with no `Authorization` header is neither counted nor refused ' +
      '(its 401 as always): it guesses nothing and costs no lookup, and counting it would let signed-out browsers ' +
      'behind one address lock out its users',
    composed: true,
  },
  authFailureWindowMs: {
    env: 'AUTH_FAILURE_WINDOW_SECONDS',
    parse: p.secondsAsMs(1, 86_400),
    unset: `\`${DEFAULT_AUTH_FAILURE_WINDOW_SECONDS}\``,
    meaning: 'its window, in seconds; refused without `{{authFailureLimit}}`',
    composed: true,
  },
} as const satisfies Record<string, Setting>;

/** A setting's name in `SETTINGS`. */
export type SettingKey = keyof typeof SETTINGS;

type ValueOf<S> = S extends { readonly parse: infer P extends z.ZodType }
  ? S extends { readonly default: string }
    ? z.output<P>
    : z.output<P> | null
  : never;

/** Every setting's value: parsed, its default when unset, else `null`. */
export type Settings = { readonly [K in SettingKey]: ValueOf<(typeof SETTINGS)[K]> };

/** The settings that are fields of `Config` as they are (not `composed`). */
export type PlainSettings = {
  readonly [K in SettingKey as (typeof SETTINGS)[K] extends { readonly composed: true } ? never : K]: Settings[K];
};

/** Each setting's environment variable: for messages that name one. */
export const ENV = Object.fromEntries(Object.entries(SETTINGS).map(([key, s]) => [key, s.env])) as {
  readonly [K in SettingKey]: (typeof SETTINGS)[K]['env'];
};

/** The settings in table order. */
export const SETTING_ENTRIES = Object.entries(SETTINGS) as [SettingKey, Setting][];

/** Parses every setting of `env`; every value that does not parse is a line of one {@link ConfigError}. */
export function parseSettings(env: Readonly<Record<string, string | undefined>>): Settings {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, setting] of SETTING_ENTRIES) {
    const given = env[setting.env];
    const text = given === undefined || (setting.exact !== true && given.trim() === '') ? setting.default : given;
    if (text === undefined) {
      values[key] = null;
      continue;
    }
    const parsed = setting.parse.safeParse(text);
    if (parsed.success) values[key] = parsed.data;
    else problems.push(...parsed.error.issues.map((i) => `${[setting.env, ...i.path].join('.')}: ${i.message}`));
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return values as Settings;
}

/** The settings that are fields of `Config` as they are. */
export function plainSettings(settings: Settings): PlainSettings {
  return Object.fromEntries(SETTING_ENTRIES.filter(([, s]) => s.composed !== true).map(([key]) => [key, settings[key]])) as PlainSettings;
}
