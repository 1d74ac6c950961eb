import * as z from 'zod/mini';
import { systemClock, type Clock } from '../clock.js';
import { functionOption, lazySchema, parseOptions } from '../options/parse-options.js';
import { HTTPS_OR_LOOPBACK_MESSAGE, isHttpsOrLoopbackUrl } from './is-loopback-url.js';
import { JWS_ALGORITHMS, type JwsAlgorithm } from './jws-algorithms.js';
import { isOidcDiscovery, type OidcDiscovery } from './oidc-discovery.js';
import { MAX_TOKEN_LIFETIME_SECONDS } from './verify-claims.js';

/**
 * Options of `createIdTokenVerifier`: an identity provider (spread a preset such as
 * `firebase({ projectId })` or `oidc({ issuer, audience })`, or give `issuer`, `audience` and
 * `jwksUrl`), plus tuning.
 */
export interface IdTokenVerifierOptions {
  /** The exact `iss` claim expected. */
  readonly issuer: string;
  /** The expected `aud`: one string, or a list of which the token's audience must contain one. */
  readonly audience: string | readonly string[];
  /** The provider's JWKS. Must be `https:`; `http:` only for a loopback host. Give this or `discovery`. */
  readonly jwksUrl?: string;
  /**
   * The provider's OpenID Connect discovery document (`<issuer>/.well-known/openid-configuration`),
   * as `oidc()` sets it: its `issuer` must equal `issuer`, and its `jwks_uri` is the key set. Cached
   * by the key set's rules. Give this (spread `oidc({ issuer, audience })`) or `jwksUrl`.
   */
  readonly discovery?: OidcDiscovery;
  /** Leeway for `exp`, `iat`, `nbf` and `auth_time`, in seconds. Default 5, at most 300. */
  readonly clockToleranceSeconds?: number;
  /** The clock, in milliseconds since the epoch. Default `Date.now`. */
  readonly clock?: Clock;
  /** The `fetch` used for the key set. Default the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** A key set fetch is abandoned after this long. Default 5000 ms. */
  readonly fetchTimeoutMs?: number;
  /** An unknown `kid` triggers a key set refetch at most once per this period. Default 30 000 ms. */
  readonly unknownKidCooldownMs?: number;
  /** How long a key set is fresh when the response carries no `Cache-Control: max-age`. Default 10 min. */
  readonly defaultMaxAgeMs?: number;
  /**
   * When refreshing the key set fails, the last good keys keep serving for at most this long past
   * their expiry; after that verification answers `UnavailableError`. Default 1 h.
   */
  readonly staleWhileErrorMs?: number;
  /** How many verified tokens are remembered so a repeat is cheap. Default 10 000; 0 disables. */
  readonly maxCachedTokens?: number;
  /**
   * The JWS algorithms tokens may be signed with. Default `['RS256']` (what the spec and Firebase
   * use). Any of `JWS_ALGORITHMS`: RS256/384/512, PS256/384/512, ES256, ES384, EdDSA (Ed25519).
   * Each key verifies only the algorithms of its type and curve (and its `alg`, when it has one).
   */
  readonly algorithms?: readonly JwsAlgorithm[];
  /** The longest lifetime (`exp - iat`) accepted, in seconds. Default 3600, at most 30 days. */
  readonly maxLifetimeSeconds?: number;
  /**
   * The `typ` header required, e.g. `'at+jwt'` for RFC 9068 access tokens (compared without case,
   * `application/` optional). Default: not checked.
   */
  readonly typ?: string;
  /**
   * Told, once per cause, when the provider cannot be used (its discovery document names another
   * issuer, its key set does not load, it is down: every ID token then answers 503), and once when
   * it can again; never a token. Default `console.warn`; pass your logger's, e.g.
   * `(message) => log.warn(message)`.
   */
  readonly onWarning?: (message: string) => void;
}

/** Options after parsing, every default filled in. */
export interface ResolvedIdTokenVerifierOptions {
  readonly issuer: string;
  readonly audiences: readonly string[];
  /** Exactly one of `jwksUrl` and `discovery` is set. */
  readonly jwksUrl: URL | undefined;
  readonly discovery: OidcDiscovery | undefined;
  readonly clockToleranceSeconds: number;
  readonly clock: Clock;
  readonly fetch: typeof fetch;
  readonly fetchTimeoutMs: number;
  readonly unknownKidCooldownMs: number;
  readonly defaultMaxAgeMs: number;
  readonly staleWhileErrorMs: number;
  readonly maxCachedTokens: number;
  readonly algorithms: readonly JwsAlgorithm[];
  readonly maxLifetimeSeconds: number;
  readonly typ: string | undefined;
  readonly onWarning: (message: string) => void;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const schema = /* @__PURE__ */ lazySchema(() => {
  const nonEmpty = z.string().check(z.minLength(1));
  const duration = (max: number) => z.int().check(z.minimum(0), z.maximum(max));
  const fn = <T>() => z.optional(functionOption<T>());
  return z.strictObject({
    issuer: nonEmpty,
    audience: z.union([nonEmpty, z.array(nonEmpty).check(z.minLength(1))]),
    jwksUrl: z.optional(nonEmpty.check(z.refine(isHttpsOrLoopbackUrl, { error: HTTPS_OR_LOOPBACK_MESSAGE }))),
    discovery: z.optional(z.custom<OidcDiscovery>(isOidcDiscovery, { error: 'expected the discovery of oidc({ issuer, audience })' })),
    clockToleranceSeconds: z._default(z.number().check(z.minimum(0), z.maximum(300)), 5),
    clock: fn<Clock>(),
    fetch: fn<typeof fetch>(),
    fetchTimeoutMs: z._default(z.int().check(z.minimum(1), z.maximum(60_000)), 5_000),
    unknownKidCooldownMs: z._default(duration(DAY), 30_000),
    defaultMaxAgeMs: z._default(duration(DAY), 10 * 60_000),
    staleWhileErrorMs: z._default(duration(7 * DAY), HOUR),
    maxCachedTokens: z._default(duration(10_000_000), 10_000),
    algorithms: z.optional(z.array(z.enum(JWS_ALGORITHMS)).check(z.minLength(1))),
    maxLifetimeSeconds: z._default(z.int().check(z.minimum(1), z.maximum(30 * 86_400)), MAX_TOKEN_LIFETIME_SECONDS),
    typ: z.optional(nonEmpty),
    onWarning: fn<(message: string) => void>(),
  });
});

/**
 * Parses verifier options once; a caller mistake (unknown option, bad URL, tolerance above five
 * minutes) is a `TypeError` here rather than a surprise on the first request.
 */
export function parseIdTokenVerifierOptions(options: unknown): ResolvedIdTokenVerifierOptions {
  const o = parseOptions(schema(), options, 'createIdTokenVerifier');
  if ((o.jwksUrl === undefined) === (o.discovery === undefined)) {
    throw new TypeError('createIdTokenVerifier: give exactly one of jwksUrl and discovery (e.g. spread oidc({ issuer, audience }))');
  }
  const fetchImpl = o.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') {
    throw new TypeError('createIdTokenVerifier: no global fetch; pass the `fetch` option');
  }
  return {
    issuer: o.issuer,
    audiences: typeof o.audience === 'string' ? [o.audience] : [...o.audience],
    jwksUrl: o.jwksUrl === undefined ? undefined : new URL(o.jwksUrl),
    discovery: o.discovery,
    clockToleranceSeconds: o.clockToleranceSeconds,
    clock: o.clock ?? systemClock,
    fetch: fetchImpl,
    fetchTimeoutMs: o.fetchTimeoutMs,
    unknownKidCooldownMs: o.unknownKidCooldownMs,
    defaultMaxAgeMs: o.defaultMaxAgeMs,
    staleWhileErrorMs: o.staleWhileErrorMs,
    maxCachedTokens: o.maxCachedTokens,
    algorithms: o.algorithms === undefined ? ['RS256'] : [...new Set(o.algorithms)],
    maxLifetimeSeconds: o.maxLifetimeSeconds,
    typ: o.typ,
    onWarning: o.onWarning ?? ((message) => console.warn(message)),
  };
}
