import * as z from 'zod/mini';
import { systemClock, type Clock } from '../clock.js';
import { HTTPS_OR_LOOPBACK_MESSAGE, isHttpsOrLoopbackUrl } from '../id-token/is-loopback-url.js';
import { functionOption, lazySchema, parseOptions } from '../options/parse-options.js';

/** Where GitHub publishes the keys it signs secret scanning alerts with. */
export const GITHUB_SECRET_SCANNING_KEYS_URL = 'https://api.github.com/meta/public_keys/secret_scanning';

/** Options of `createGitHubSecretScanning`; every one has a default. */
export interface GitHubSecretScanningOptions {
  /**
   * GitHub's key list, `{"public_keys": [{"key_identifier", "key", "is_current"}]}`. Must be
   * `https:`; `http:` only for a loopback host (tests). Default {@link GITHUB_SECRET_SCANNING_KEYS_URL}.
   */
  readonly keysUrl?: string;
  /** The `fetch` used for the key list. Default the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** The clock, in milliseconds since the epoch. Default `Date.now`. */
  readonly clock?: Clock;
  /** A key list fetch is abandoned after this long (then a 503). Default 5000 ms, at most 60 000. */
  readonly fetchTimeoutMs?: number;
  /**
   * How long a fetched key list is used before it is fetched again. Default 1 h. While a
   * refetch fails, the last good list keeps serving for up to another hour.
   */
  readonly cacheMs?: number;
  /**
   * A key identifier not in the list triggers a refetch (GitHub may have added a key) at most
   * once per this period; in between, such a signature is refused (401). Default 60 000 ms.
   */
  readonly unknownKeyCooldownMs?: number;
}

/** Options after parsing, every default filled in. */
export interface ResolvedGitHubSecretScanningOptions {
  readonly keysUrl: URL;
  readonly fetch: typeof fetch;
  readonly clock: Clock;
  readonly fetchTimeoutMs: number;
  readonly cacheMs: number;
  readonly unknownKeyCooldownMs: number;
}

const DAY = 24 * 3_600_000;

const schema = /* @__PURE__ */ lazySchema(() => {
  const fn = <T>() => z.optional(functionOption<T>());
  const duration = (min: number, max: number, fallback: number) => z._default(z.int().check(z.minimum(min), z.maximum(max)), fallback);
  return z.strictObject({
    keysUrl: z._default(
      z.string().check(z.refine(isHttpsOrLoopbackUrl, { error: HTTPS_OR_LOOPBACK_MESSAGE })),
      GITHUB_SECRET_SCANNING_KEYS_URL,
    ),
    fetch: fn<typeof fetch>(),
    clock: fn<Clock>(),
    fetchTimeoutMs: duration(1, 60_000, 5_000),
    cacheMs: duration(0, 7 * DAY, 3_600_000),
    unknownKeyCooldownMs: duration(0, DAY, 60_000),
  });
});

/**
 * Parses the options once; a caller mistake (unknown option, an `http:` URL off loopback, a
 * negative duration) is a `TypeError` here rather than a surprise on GitHub's first delivery.
 */
export function parseGitHubSecretScanningOptions(options: unknown): ResolvedGitHubSecretScanningOptions {
  const o = parseOptions(schema(), options ?? {}, 'createGitHubSecretScanning');
  const fetchImpl = o.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') {
    throw new TypeError('createGitHubSecretScanning: no global fetch; pass the `fetch` option');
  }
  return {
    keysUrl: new URL(o.keysUrl),
    fetch: fetchImpl,
    clock: o.clock ?? systemClock,
    fetchTimeoutMs: o.fetchTimeoutMs,
    cacheMs: o.cacheMs,
    unknownKeyCooldownMs: o.unknownKeyCooldownMs,
  };
}
