import { z } from 'zod';
import { systemClock, type Clock } from '../clock.js';
import { isLoopbackUrl } from './is-loopback-url.js';

/**
 * Options of `createIdTokenVerifier`: an identity provider (spread a preset such as
 * `firebase({ projectId })`, or give `issuer`, `audience` and `jwksUrl`), plus tuning.
 */
export interface IdTokenVerifierOptions {
  /** The exact `iss` claim expected. */
  readonly issuer: string;
  /** The expected `aud`: one string, or a list of which the token's audience must contain one. */
  readonly audience: string | readonly string[];
  /** The provider's JWKS. Must be `https:`; `http:` only for a loopback host. */
  readonly jwksUrl: string;
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
}

/** Options after parsing, every default filled in. */
export interface ResolvedIdTokenVerifierOptions {
  readonly issuer: string;
  readonly audiences: readonly string[];
  readonly jwksUrl: URL;
  readonly clockToleranceSeconds: number;
  readonly clock: Clock;
  readonly fetch: typeof fetch;
  readonly fetchTimeoutMs: number;
  readonly unknownKidCooldownMs: number;
  readonly defaultMaxAgeMs: number;
  readonly staleWhileErrorMs: number;
  readonly maxCachedTokens: number;
}

const nonEmpty = z.string().min(1);
const duration = (max: number) => z.number().int().min(0).max(max);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const schema = z.strictObject({
  issuer: nonEmpty,
  audience: z.union([nonEmpty, z.array(nonEmpty).min(1)]),
  jwksUrl: nonEmpty.refine(
    (value) => {
      if (!URL.canParse(value)) return false;
      const url = new URL(value);
      return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackUrl(url));
    },
    { message: 'must be an https: URL (http: only for 127.0.0.0/8, localhost or [::1])' },
  ),
  clockToleranceSeconds: z.number().min(0).max(300).default(5),
  clock: z.custom<Clock>((v) => typeof v === 'function', 'must be a function').optional(),
  fetch: z.custom<typeof fetch>((v) => typeof v === 'function', 'must be a function').optional(),
  fetchTimeoutMs: z.number().int().min(1).max(60_000).default(5_000),
  unknownKidCooldownMs: duration(DAY).default(30_000),
  defaultMaxAgeMs: duration(DAY).default(10 * 60_000),
  staleWhileErrorMs: duration(7 * DAY).default(HOUR),
  maxCachedTokens: duration(10_000_000).default(10_000),
});

/**
 * Parses verifier options once; a caller mistake (unknown option, bad URL, tolerance above five
 * minutes) is a `TypeError` here rather than a surprise on the first request.
 */
export function parseIdTokenVerifierOptions(options: unknown): ResolvedIdTokenVerifierOptions {
  const result = schema.safeParse(options);
  if (!result.success) {
    throw new TypeError(`createIdTokenVerifier: invalid options\n${z.prettifyError(result.error)}`);
  }
  const o = result.data;
  const fetchImpl = o.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') {
    throw new TypeError('createIdTokenVerifier: no global fetch; pass the `fetch` option');
  }
  return {
    issuer: o.issuer,
    audiences: typeof o.audience === 'string' ? [o.audience] : [...o.audience],
    jwksUrl: new URL(o.jwksUrl),
    clockToleranceSeconds: o.clockToleranceSeconds,
    clock: o.clock ?? systemClock,
    fetch: fetchImpl,
    fetchTimeoutMs: o.fetchTimeoutMs,
    unknownKidCooldownMs: o.unknownKidCooldownMs,
    defaultMaxAgeMs: o.defaultMaxAgeMs,
    staleWhileErrorMs: o.staleWhileErrorMs,
    maxCachedTokens: o.maxCachedTokens,
  };
}
