import type { Clock } from '../clock.js';
import { jwksFetchChannel } from '../diagnostics/channels.js';
import { UnauthenticatedError, UnavailableError } from '../errors/index.js';
import { cacheControlMaxAgeMs } from './cache-control-max-age.js';
import type { PublicKey } from '../platform/runtime-crypto.js';
import { importJwks, type ImportedKey } from './import-jwks.js';

/** Options of a `RemoteKeySet`; see `IdTokenVerifierOptions` for their meaning and defaults. */
export interface RemoteKeySetOptions {
  readonly url: URL;
  readonly fetch: typeof fetch;
  readonly clock: Clock;
  readonly fetchTimeoutMs: number;
  readonly defaultMaxAgeMs: number;
  readonly staleWhileErrorMs: number;
  readonly unknownKidCooldownMs: number;
}

/** A key set is kept at least this long, whatever `Cache-Control` says (`no-cache`, `max-age=0`). */
const MIN_MAX_AGE_MS = 5_000;
/** ...and at most this long. */
const MAX_MAX_AGE_MS = 24 * 3_600_000;
/** After a failed fetch, requests do not start another one for this long (a down provider is not hammered). */
const RETRY_AFTER_FAILURE_MS = 1_000;
/** A key set document larger than this is refused. */
const MAX_DOCUMENT_BYTES = 512 * 1024;

/**
 * The identity provider's JSON Web Key Set, fetched over HTTP and imported once (into `KeyObject`s on
 * Node, `CryptoKey`s elsewhere).
 *
 * - Fresh for the response's `Cache-Control: max-age` (else `defaultMaxAgeMs`).
 * - One fetch in flight at a time; concurrent callers share it.
 * - An unknown `kid` triggers a refetch at most once per `unknownKidCooldownMs`; a `kid` still
 *   unknown after that, with a good key set, is a bad token (401).
 * - A failed refresh (network error, timeout, non-2xx, garbage) keeps the last good keys serving
 *   for at most `staleWhileErrorMs` past their expiry; with no usable keys, callers get
 *   `UnavailableError('identity_provider')`, never a 401.
 */
export class RemoteKeySet {
  readonly #options: RemoteKeySetOptions;
  #keys: ReadonlyMap<string, ImportedKey> | undefined;
  #freshUntil = 0;
  #inFlight: Promise<void> | undefined;
  /** When the last fetch failed; `undefined` once one succeeds. */
  #failedAt: number | undefined;
  #lastError: unknown;
  #unknownKidFetchAt = Number.NEGATIVE_INFINITY;

  constructor(options: RemoteKeySetOptions) {
    this.#options = options;
  }

  /** The key for `kid` if the key set is fresh and holds it; otherwise `undefined` (use `getKey`). */
  peek(kid: string): PublicKey | undefined {
    if (this.#keys === undefined || this.#options.clock() >= this.#freshUntil) return undefined;
    return this.#keys.get(kid)?.key;
  }

  /**
   * The key for `kid`: synchronously when the key set is fresh and holds it, else after a
   * refresh. Rejects with `UnauthenticatedError('invalid_token')` for a `kid` the provider does
   * not publish, and `UnavailableError('identity_provider')` when no usable key set can be had.
   */
  getKey(kid: string): PublicKey | Promise<PublicKey> {
    const key = this.peek(kid);
    if (key !== undefined) return key;
    return this.#getKeySlow(kid);
  }

  /**
   * Fetches the key set now (joining a fetch already in flight). Rejects with
   * `UnavailableError('identity_provider')` if it fails.
   */
  refresh(): Promise<void> {
    this.#inFlight ??= this.#fetchKeySet().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  async #getKeySlow(kid: string): Promise<PublicKey> {
    const { clock, unknownKidCooldownMs } = this.#options;
    let now = clock();
    if (this.#inFlight !== undefined) {
      await this.#settle(this.#inFlight);
    } else if (this.#keys === undefined || now >= this.#freshUntil) {
      // Missing or expired: refresh, unless a fetch failed a moment ago.
      if (this.#failedAt === undefined || now - this.#failedAt >= RETRY_AFTER_FAILURE_MS) {
        await this.#settle(this.refresh());
      }
    } else if (now - this.#unknownKidFetchAt >= unknownKidCooldownMs) {
      // Fresh, but the kid is unknown: perhaps the provider rotated. Refetch once per cooldown.
      this.#unknownKidFetchAt = now;
      await this.#settle(this.refresh());
    }

    now = clock();
    const keys = this.#keys;
    if (keys === undefined || now >= this.#freshUntil + this.#options.staleWhileErrorMs) {
      throw this.#unavailable();
    }
    const found = keys.get(kid)?.key;
    if (found !== undefined) return found;
    // The kid is unknown. With a good, current key set that is the token's fault; if the last
    // fetch failed we cannot tell, and must not call a possibly good token bad.
    if (this.#failedAt !== undefined) throw this.#unavailable();
    throw new UnauthenticatedError('invalid_token', 'kid is not in the key set');
  }

  /** Waits for a refresh, success or not: a failure is recorded in `#failedAt`. */
  async #settle(refresh: Promise<void>): Promise<void> {
    await refresh.catch(() => {});
  }

  #unavailable(): UnavailableError {
    return new UnavailableError('identity_provider', { cause: this.#lastError });
  }

  async #fetchKeySet(): Promise<void> {
    const { url, fetch: fetchImpl, clock, fetchTimeoutMs, defaultMaxAgeMs } = this.#options;
    // Reported on drops-auth:jwks-fetch, timed only while someone listens.
    const startedAt = jwksFetchChannel.hasSubscribers ? performance.now() : -1;
    try {
      const response = await fetchImpl(url, {
        headers: { accept: 'application/json' },
        // Never followed: a redirect is a failed fetch (below, as not `ok`). 'manual' rather than
        // 'error', which workerd refuses.
        redirect: 'manual',
        signal: AbortSignal.timeout(fetchTimeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw new Error(`key set endpoint answered ${response.status}`);
      }
      const text = await response.text();
      if (text.length > MAX_DOCUMENT_BYTES) throw new Error('key set document is too large');
      const keys = await importJwks(JSON.parse(text), this.#keys);
      const maxAge =
        cacheControlMaxAgeMs(response.headers.get('cache-control'), response.headers.get('age')) ??
        defaultMaxAgeMs;
      this.#keys = keys;
      this.#freshUntil = clock() + Math.min(MAX_MAX_AGE_MS, Math.max(MIN_MAX_AGE_MS, maxAge));
      this.#failedAt = undefined;
      this.#lastError = undefined;
      if (startedAt >= 0) {
        jwksFetchChannel.publish({ url: url.href, outcome: 'fetched', keyCount: keys.size, durationMs: performance.now() - startedAt, error: null });
      }
    } catch (error) {
      this.#failedAt = clock();
      this.#lastError = error;
      if (startedAt >= 0) {
        jwksFetchChannel.publish({ url: url.href, outcome: 'failed', keyCount: null, durationMs: performance.now() - startedAt, error });
      }
      throw new UnavailableError('identity_provider', { cause: error });
    }
  }
}
