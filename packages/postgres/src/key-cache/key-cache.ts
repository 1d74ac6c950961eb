import type { ActiveKey } from '@drops/auth';

/**
 * Where a {@link PostgresKeyStore} keeps active keys it found, so a key that authenticated once
 * costs no query: the one seam between the store and its cache strategy. Three implement it: none
 * (every lookup a query), in-process (PGlite: only this process changes the data) and leased
 * (PostgreSQL: keys kept under a lease, revocations announced and acknowledged; `../lease/`).
 * @internal
 */
export interface KeyCache {
  /**
   * The key, when it may be answered from memory now; `null`: certainly not an active key (the
   * leased membership says so); `undefined`: ask the database, if {@link held}.
   */
  get(id: string): ActiveKey | null | undefined;
  /**
   * The account's sign-out cut-off (ms), when memory answers now; `null`: none; `undefined`: ask the
   * database, if {@link held}.
   */
  cutoff(accountId: string): number | null | undefined;
  /**
   * Whether a lookup may go on: always, except for the leased cache without its lease (or before
   * its membership is built and current), when the store waits ({@link heldWithin}) or answers 503.
   */
  readonly held: boolean;
  /** Resolves `true` once {@link held}, `false` if not within `ms`. */
  heldWithin(ms: number): Promise<boolean>;
  /** Taken before a lookup's query and handed back to {@link remember}. */
  readonly generation: number;
  /** Keeps a key read at `generation`, unless a key was dropped (or the lease changed) since. */
  remember(key: ActiveKey, generation: number): void;
  /** A revocation of `id` is under way here: no lookup answers it from memory from now on. */
  drop(id: string): void;
  /** A lookup failed: the database may be gone, so nothing kept is trusted. */
  failed(): void;
  /** Resolves at the next acknowledgement of a revocation by any instance (never, when unheard). */
  nextAcknowledgement(): Promise<void>;
  /** Longest pause between two checks of a revocation's wait, in ms. */
  readonly maxPollMs: number;
  /** Longest wait for acknowledgements, in ms: past it a lease still pending is an error (a 503). */
  readonly maxWaitMs: number;
  /** Resolves once the cache can answer (leased: its first lease), rejects if it can never hear announcements. */
  ready(): Promise<void>;
  /** Hearing checks of the lease session that went unheard so far (0 when not leased). */
  readonly unheard: number;
  /** Stops (releasing a lease); nothing is answered from memory afterwards. */
  close(): Promise<void>;
}

/** No cache: every lookup is a query; a revocation's wait polls. @internal */
export const noKeyCache: KeyCache = Object.freeze({
  get: () => undefined,
  cutoff: () => undefined,
  held: true,
  heldWithin: () => Promise.resolve(true),
  generation: 0,
  remember: () => {},
  drop: () => {},
  failed: () => {},
  nextAcknowledgement: () => new Promise<void>(() => {}),
  maxPollMs: 25,
  maxWaitMs: Number.POSITIVE_INFINITY,
  ready: () => Promise.resolve(),
  unheard: 0,
  close: () => Promise.resolve(),
});
