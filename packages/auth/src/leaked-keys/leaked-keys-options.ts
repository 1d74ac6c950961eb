import * as z from 'zod/mini';
import { systemClock, type Clock } from '../clock.js';
import { functionOption, lazySchema, parseOptions } from '../options/parse-options.js';
import { DEFAULT_IPV6_PREFIX_LENGTH } from '../rate-limit/client-subject.js';
import { rateLimitOptionSchema, type RateLimit } from '../rate-limit/rate-limiter.js';
import { inProcessRateLimitStore, isRateLimitStore, type RateLimitStore } from '../rate-limit/rate-limit-store.js';
import { createGitHubSecretScanning, type GitHubSecretScanning } from '../secret-scanning/create-github-secret-scanning.js';

/** Default `revokeRateLimit`: 60 `POST /credentials/revoke` at once per client address, refilled at 60 an hour. */
export const DEFAULT_REVOKE_RATE_LIMIT = { max: 60, windowMs: 3_600_000 } as const;
/**
 * Default `secretScanningRateLimit`: 600 `POST /secret-scanning/github` at once per client address,
 * refilled at 600 a minute (GitHub sends from a few addresses, in bursts).
 */
export const DEFAULT_SECRET_SCANNING_RATE_LIMIT = { max: 600, windowMs: 60_000 } as const;
/** Default `revokeBodyLimit`: 1000 secrets of 46 characters, quoted, with room for whitespace. */
export const DEFAULT_REVOKE_BODY_LIMIT = 128 * 1024;
/** Default `secretScanningBodyLimit`. */
export const DEFAULT_SECRET_SCANNING_BODY_LIMIT = 1024 * 1024;

/**
 * Options of the leaked-key routes, `POST /credentials/revoke` and `POST /secret-scanning/github`
 * (`leakedKeysHandler` in `@drops/auth`, `leakedKeysRouter` in `@drops/auth-express` and
 * `@drops/auth-koa`). Every one has a default.
 */
export interface LeakedKeysOptions {
  /**
   * Verifies GitHub's secret scanning alerts. Default `createGitHubSecretScanning()` (GitHub's
   * key list, fetched on the first alert). `false` leaves `POST /secret-scanning/github` unserved.
   */
  githubSecretScanning?: GitHubSecretScanning | false;
  /**
   * How often one client address may call `POST /credentials/revoke`, counted in `rateLimitStore`
   * (scope `'revoke_by_value'`). Over it, a 429 with `Retry-After`; a store that cannot answer, a
   * 503. `false` turns it off. Default `{ max: 60, windowMs: 3_600_000 }`: 60 at once, then one a minute.
   */
  revokeRateLimit?: RateLimit | false;
  /**
   * How often one client address may call `POST /secret-scanning/github` (it takes no credential),
   * counted before its body is read; over it a 429 with `Retry-After`. `false` turns it off.
   * Default `{ max: 600, windowMs: 60_000 }`.
   */
  secretScanningRateLimit?: RateLimit | false;
  /**
   * Where the two limits above are counted (scopes `'revoke_by_value'` and `'secret_scanning'`).
   * Default `inProcessRateLimitStore({ clock })`: in this process, so each server instance counts
   * alone; a `PostgresRateLimitStore` (`@drops/auth-postgres`) shared by every instance counts together.
   */
  rateLimitStore?: RateLimitStore;
  /** IPv6 clients share one rate limit per network of this many bits (1 to 128). Default 64. */
  ipv6PrefixLength?: number;
  /** Largest `POST /credentials/revoke` body, in bytes; over it a 413. Default 131 072. */
  revokeBodyLimit?: number;
  /** Largest `POST /secret-scanning/github` body, in bytes; over it a 413. Default 1 048 576. */
  secretScanningBodyLimit?: number;
  /** The clock of the default rate limit store. Default `Date.now`. */
  clock?: Clock;
}

/** Options after parsing, every default filled in. @internal */
export interface ResolvedLeakedKeysOptions {
  readonly githubSecretScanning: GitHubSecretScanning | null;
  readonly revokeRateLimit: RateLimit | null;
  readonly secretScanningRateLimit: RateLimit | null;
  readonly rateLimitStore: RateLimitStore;
  readonly ipv6PrefixLength: number;
  readonly revokeBodyLimit: number;
  readonly secretScanningBodyLimit: number;
  readonly clock: Clock;
}

const schema = /* @__PURE__ */ lazySchema(() => {
  const bytes = z.optional(z.int().check(z.positive()));
  return z.strictObject({
    githubSecretScanning: z.optional(
      z.union([
        z.literal(false),
        z.custom<GitHubSecretScanning>((v) => typeof (v as GitHubSecretScanning | null)?.verify === 'function', {
          error: 'expected createGitHubSecretScanning() or false',
        }),
      ]),
    ),
    revokeRateLimit: z.optional(rateLimitOptionSchema()),
    secretScanningRateLimit: z.optional(rateLimitOptionSchema()),
    rateLimitStore: z.optional(z.custom<RateLimitStore>(isRateLimitStore, { error: 'expected a RateLimitStore' })),
    ipv6PrefixLength: z.optional(z.int().check(z.minimum(1), z.maximum(128))),
    revokeBodyLimit: bytes,
    secretScanningBodyLimit: bytes,
    clock: z.optional(functionOption<Clock>()),
  });
});

/**
 * Parses the options once, for the factory named `where`; a mistake is a `TypeError` there.
 * @internal
 */
export function parseLeakedKeysOptions(options: unknown, where: string): ResolvedLeakedKeysOptions {
  const o = parseOptions(schema(), options ?? {}, where);
  return {
    githubSecretScanning: o.githubSecretScanning === false ? null : (o.githubSecretScanning ?? createGitHubSecretScanning()),
    revokeRateLimit: o.revokeRateLimit === false ? null : (o.revokeRateLimit ?? DEFAULT_REVOKE_RATE_LIMIT),
    secretScanningRateLimit: o.secretScanningRateLimit === false ? null : (o.secretScanningRateLimit ?? DEFAULT_SECRET_SCANNING_RATE_LIMIT),
    rateLimitStore: o.rateLimitStore ?? inProcessRateLimitStore({ clock: o.clock ?? systemClock }),
    ipv6PrefixLength: o.ipv6PrefixLength ?? DEFAULT_IPV6_PREFIX_LENGTH,
    revokeBodyLimit: o.revokeBodyLimit ?? DEFAULT_REVOKE_BODY_LIMIT,
    secretScanningBodyLimit: o.secretScanningBodyLimit ?? DEFAULT_SECRET_SCANNING_BODY_LIMIT,
    clock: o.clock ?? systemClock,
  };
}
