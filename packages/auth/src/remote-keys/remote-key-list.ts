import type { Clock } from '../clock.js';
import type { PublishingChannel } from '../diagnostics/diagnostics-channel.js';
import type { JwksFetchMessage } from '../diagnostics/diagnostics-messages.js';
import type { UnavailableError } from '../errors/unavailable-error.js';
import { readCappedText } from './read-capped-text.js';

/** Options of a {@link RemoteKeyList}. */
export interface RemoteKeyListOptions<K> {
  /** Where the list is published (the caller has checked it: `https:`, or `http:` on loopback). */
  readonly url: URL;
  readonly fetch: typeof fetch;
  readonly clock: Clock;
  /** A fetch is abandoned after this long. */
  readonly fetchTimeoutMs: number;
  /** How long a list just fetched stays fresh, from the answer (e.g. its `Cache-Control`). */
  readonly freshForMs: (response: Response) => number;
  /** When a refresh fails, the last good keys keep serving for at most this long past their freshness. */
  readonly staleWhileErrorMs: number;
  /** An unknown id triggers a refetch of a fresh list at most once per this period. */
  readonly unknownIdCooldownMs: number;
  /**
   * Turns the fetched JSON document into keys by id, reusing `previous` entries that did not
   * change; rejects for a document that holds no usable key (a fetch failure, never a bad request).
   */
  readonly importKeys: (document: unknown, previous: ReadonlyMap<string, K> | undefined) => Promise<ReadonlyMap<string, K>>;
  /** The 503 answered when no usable list can be had. */
  readonly unavailable: (cause: unknown) => UnavailableError;
  /** The error for an id that a good, current list does not hold. */
  readonly unknownId: (id: string) => Error;
  /**
   * When given, the error for an id the list does not hold while a refetch is not allowed yet
   * (within `unknownIdCooldownMs` of the last one), with the time left: the id may have been
   * published since, so it is not called bad. Default: `unknownId`.
   */
  readonly unknownIdInCooldown?: (retryAfterMs: number) => Error;
  /** Where each fetch is reported, timed only while someone listens. Default: nowhere. */
  readonly channel?: PublishingChannel<JwksFetchMessage>;
}

/** After a failed fetch, requests do not start another one for this long (a down server is not hammered). */
const RETRY_AFTER_FAILURE_MS = 1_000;
/** A key list document larger than this is refused, while it streams in. */
const MAX_DOCUMENT_BYTES = 512 * 1024;

/**
 * A list of public keys by id, published as JSON at a URL: an identity provider's JWKS, GitHub's
 * secret scanning keys. Fetched and imported once per refresh, never per request.
 *
 * - Fresh for `freshForMs(answer)`.
 * - One fetch in flight at a time; concurrent callers share it.
 * - An unknown id triggers a refetch at most once per `unknownIdCooldownMs`; an id still unknown
 *   after that, with a good list, is the caller's fault (`unknownId`). An unknown id met inside
 *   the cooldown is `unknownIdInCooldown` when given (so unknown ids sent to use up the refetches
 *   can never make a key published since look bad), else `unknownId`.
 * - A failed refresh (network error, timeout, redirect, non-2xx, garbage, no usable key) keeps
 *   the last good keys serving for at most `staleWhileErrorMs` past their freshness; with no
 *   usable keys, callers get `unavailable` (a 503), never the caller's-fault error.
 */
export class RemoteKeyList<K> {
  readonly #options: RemoteKeyListOptions<K>;
  #keys: ReadonlyMap<string, K> | undefined;
  #freshUntil = 0;
  #inFlight: Promise<void> | undefined;
  /** When the last fetch failed; `undefined` once one succeeds. */
  #failedAt: number | undefined;
  #lastError: unknown;
  #unknownIdFetchAt = Number.NEGATIVE_INFINITY;

  constructor(options: RemoteKeyListOptions<K>) {
    this.#options = options;
  }

  /** The key for `id` if the list is fresh and holds it; otherwise `undefined` (use `getKey`). */
  peek(id: string): K | undefined {
    if (this.#keys === undefined || this.#options.clock() >= this.#freshUntil) return undefined;
    return this.#keys.get(id);
  }

  /**
   * The key for `id`: synchronously when the list is fresh and holds it, else after a refresh.
   * Rejects with `unknownId(id)` for an id the list does not hold, and `unavailable` when no
   * usable list can be had.
   */
  getKey(id: string): K | Promise<K> {
    const key = this.peek(id);
    if (key !== undefined) return key;
    return this.#getKeySlow(id);
  }

  /** Fetches the list now (joining a fetch already in flight). Rejects with `unavailable` if it fails. */
  refresh(): Promise<void> {
    this.#inFlight ??= this.#fetchList().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  async #getKeySlow(id: string): Promise<K> {
    const { clock, unknownIdCooldownMs } = this.#options;
    let now = clock();
    let cooldownLeftMs = 0;
    if (this.#inFlight !== undefined) {
      await this.#settle(this.#inFlight);
      // Joined a fetch that may have started before the id was published: if it was another
      // unknown id's refetch, this id had no refetch of its own, so it is inside the cooldown.
      cooldownLeftMs = this.#unknownIdFetchAt + unknownIdCooldownMs - clock();
    } else if (this.#keys === undefined || now >= this.#freshUntil) {
      // Missing or expired: refresh, unless a fetch failed a moment ago.
      if (this.#failedAt === undefined || now - this.#failedAt >= RETRY_AFTER_FAILURE_MS) {
        await this.#settle(this.refresh());
      }
    } else if (now - this.#unknownIdFetchAt >= unknownIdCooldownMs) {
      // Fresh, but the id is unknown: perhaps the keys were rotated. Refetch once per cooldown.
      this.#unknownIdFetchAt = now;
      await this.#settle(this.refresh());
    } else {
      cooldownLeftMs = this.#unknownIdFetchAt + unknownIdCooldownMs - now;
    }

    now = clock();
    const keys = this.#keys;
    if (keys === undefined || now >= this.#freshUntil + this.#options.staleWhileErrorMs) {
      throw this.#options.unavailable(this.#lastError);
    }
    const found = keys.get(id);
    if (found !== undefined) return found;
    // The id is unknown. With a good, current list that is the caller's fault; if the last
    // fetch failed we cannot tell, and must not call a possibly good request bad.
    if (this.#failedAt !== undefined) throw this.#options.unavailable(this.#lastError);
    const { unknownIdInCooldown } = this.#options;
    if (cooldownLeftMs > 0 && unknownIdInCooldown !== undefined) throw unknownIdInCooldown(cooldownLeftMs);
    throw this.#options.unknownId(id);
  }

  /** Waits for a refresh, success or not: a failure is recorded in `#failedAt`. */
  async #settle(refresh: Promise<void>): Promise<void> {
    await refresh.catch(() => {});
  }

  async #fetchList(): Promise<void> {
    const { url, fetch: fetchImpl, clock, fetchTimeoutMs, channel } = this.#options;
    const startedAt = channel?.hasSubscribers === true ? performance.now() : -1;
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
        throw new Error(`key list endpoint answered ${response.status}`);
      }
      const text = await readCappedText(response, MAX_DOCUMENT_BYTES);
      const keys = await this.#options.importKeys(JSON.parse(text), this.#keys);
      this.#keys = keys;
      this.#freshUntil = clock() + this.#options.freshForMs(response);
      this.#failedAt = undefined;
      this.#lastError = undefined;
      if (startedAt >= 0) {
        channel!.publish({
          url: url.href,
          outcome: 'fetched',
          keyCount: keys.size,
          durationMs: performance.now() - startedAt,
          error: null,
        });
      }
    } catch (error) {
      this.#failedAt = clock();
      this.#lastError = error;
      if (startedAt >= 0) {
        channel!.publish({ url: url.href, outcome: 'failed', keyCount: null, durationMs: performance.now() - startedAt, error });
      }
      throw this.#options.unavailable(error);
    }
  }
}
