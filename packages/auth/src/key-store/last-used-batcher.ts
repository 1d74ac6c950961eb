import * as z from 'zod/mini';
import { functionOption, lazySchema, parseOptions } from '../options/parse-options.js';
import { RecentMap } from '../recent-map.js';
import { requestInfoFrom, type RequestInfo } from './key-event.js';

/** What the request behind a kept use showed (bounded strings), for the key's `'first_used'` event. */
export interface LastUseInfo {
  readonly ip: string | null;
  readonly userAgent: string | null;
}

/** Default `maxTrackedKeys`: keys a {@link LastUsedBatcher} remembers at most, per map. */
export const DEFAULT_MAX_TRACKED_KEYS = 100_000;

/** Options of {@link LastUsedBatcher}. */
export interface LastUsedBatcherOptions {
  /**
   * Writes a batch of `id -> last used` entries; `info` holds, for the entries whose use came with
   * a request-info thunk, what it answered (for a first use's event). Errors are passed to
   * `onError` and retried later.
   */
  flush: (entries: ReadonlyMap<string, Date>, info: ReadonlyMap<string, LastUseInfo>) => Promise<void>;
  /** Minimum time between two recorded uses of one key, in ms. Default 60 000 (one minute). */
  minIntervalMs?: number;
  /** How often pending entries are written, in ms. Default 5 000. */
  flushIntervalMs?: number;
  /** Called when a flush fails; the entries are kept for the next flush. */
  onError?: (error: unknown) => void;
  /**
   * Keys remembered at most: by the once-per-interval throttle, and among uses waiting to be
   * written. Past it the throttle forgets the key recorded longest ago (O(1)), and a use that
   * finds the waiting list full starts a write, or is skipped while one is in flight (that key is
   * recorded on its next use). Default 100 000.
   */
  maxTrackedKeys?: number;
}

const optionsSchema = /* @__PURE__ */ lazySchema(() => {
  const fn = functionOption<(...args: never[]) => unknown>();
  return z.strictObject({
    flush: fn,
    minIntervalMs: z._default(z.int().check(z.minimum(0)), 60_000),
    flushIntervalMs: z._default(z.int().check(z.minimum(1)), 5_000),
    onError: z.optional(fn),
    maxTrackedKeys: z._default(z.int().check(z.minimum(1)), DEFAULT_MAX_TRACKED_KEYS),
  });
});

/**
 * Records key use off the request path: at most once per `minIntervalMs` per key, batched, written
 * every `flushIntervalMs` and on `close()`. Never blocks a request; a failed write is kept and
 * retried. Stores use it to implement {@link KeyStore.recordUse}.
 *
 * Every `record` is O(1), however many keys are in use, and memory is bounded by `maxTrackedKeys`
 * (default 100 000) per map: the throttle keeps its keys in recording order, and forgets the
 * oldest when it has aged past the interval or when it is full.
 *
 * @example
 * ```ts
 * const batcher = new LastUsedBatcher({ flush: (entries) => db.writeLastUsed(entries) });
 * batcher.record(keyId, new Date());
 * await batcher.close(); // writes what is pending
 * ```
 */
export class LastUsedBatcher {
  readonly #flush: LastUsedBatcherOptions['flush'];
  readonly #minIntervalMs: number;
  readonly #onError: (error: unknown) => void;
  readonly #maxTrackedKeys: number;
  /** Key -> when its use was last recorded (ms), bounded to the most recently recorded keys. */
  readonly #lastRecorded: RecentMap<number>;
  #pending = new Map<string, Date>();
  /** Request details of pending uses that came with a thunk: only ever keys of `#pending`. */
  #pendingInfo = new Map<string, LastUseInfo>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #flushing: Promise<void> | undefined;
  #closed = false;

  constructor(options: LastUsedBatcherOptions) {
    const parsed = parseOptions(optionsSchema(), options, 'new LastUsedBatcher');
    this.#flush = options.flush;
    this.#minIntervalMs = parsed.minIntervalMs;
    this.#maxTrackedKeys = parsed.maxTrackedKeys;
    this.#lastRecorded = new RecentMap<number>(this.#maxTrackedKeys);
    this.#onError = options.onError ?? (() => {});
    this.#timer = setInterval(() => void this.flush(), parsed.flushIntervalMs);
    // The timer must not keep the process alive: Node and Bun unref the timer object; in Deno
    // it is a number with Deno.unrefTimer; on workerd there is no process to keep alive.
    (this.#timer as { unref?: () => void }).unref?.();
    (globalThis as { Deno?: { unrefTimer?: (id: unknown) => void } }).Deno?.unrefTimer?.(this.#timer);
  }

  /**
   * Notes a use of `id` at `at`. Cheap and synchronous. `info` is called only when this use is
   * kept for writing (at most once per key per `minIntervalMs`), and what it answers is kept with
   * it, bounded in length.
   */
  record(id: string, at: Date, info?: () => RequestInfo): void {
    if (this.#closed) return;
    const t = at.getTime();
    const last = this.#lastRecorded.get(id);
    if (last !== undefined && t - last < this.#minIntervalMs) return;
    const pending = this.#pending.get(id);
    if (pending === undefined && this.#pending.size >= this.#maxTrackedKeys) {
      // The waiting list is full: write it now. While a write is in flight the list cannot be
      // swapped, so this use is skipped (and the key is not marked recorded: its next use counts).
      if (this.#flushing !== undefined) return;
      void this.flush();
    }
    this.#lastRecorded.set(id, t);
    if (pending === undefined || pending.getTime() < t) {
      this.#pending.set(id, at);
      // The details go with the time they are written with: a newer use without any drops them.
      if (info !== undefined) this.#pendingInfo.set(id, requestInfoFrom(info));
      else if (pending !== undefined) this.#pendingInfo.delete(id);
    }
    // A key recorded a whole interval ago would be recorded again anyway: forget it.
    this.#lastRecorded.evictOldestIf((recordedAt) => t - recordedAt >= this.#minIntervalMs);
  }

  /** Keys the throttle remembers now (at most `maxTrackedKeys`). */
  get trackedKeys(): number {
    return this.#lastRecorded.size;
  }

  /** Uses waiting to be written now (at most `maxTrackedKeys`). */
  get pendingKeys(): number {
    return this.#pending.size;
  }

  /** Writes what is pending now. Resolves when written (or failed and kept). */
  async flush(): Promise<void> {
    if (this.#flushing) await this.#flushing;
    if (this.#pending.size === 0) return;
    const batch = this.#pending;
    const batchInfo = this.#pendingInfo;
    this.#pending = new Map();
    this.#pendingInfo = new Map();
    this.#flushing = this.#flush(batch, batchInfo)
      .catch((error: unknown) => {
        for (const [id, at] of batch) {
          const newer = this.#pending.get(id);
          if (newer === undefined && this.#pending.size >= this.#maxTrackedKeys) continue;
          if (newer === undefined || newer.getTime() < at.getTime()) {
            this.#pending.set(id, at);
            const info = batchInfo.get(id);
            if (info !== undefined) this.#pendingInfo.set(id, info);
            else this.#pendingInfo.delete(id);
          }
        }
        this.#onError(error);
      })
      .finally(() => {
        this.#flushing = undefined;
      });
    await this.#flushing;
  }

  /** Stops the timer and writes what is pending. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.flush();
  }
}
