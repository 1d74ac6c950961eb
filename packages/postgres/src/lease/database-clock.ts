/**
 * The database's clock as seen from this process: the process's wall clock plus an offset
 * measured from queries that read `clock_timestamp()` (each lease renewal, and each key lookup of
 * an expiring key). The offset is the database time minus the midpoint of the query's round trip,
 * so it is off by at most half a round trip. Every instance over the same database reads the same
 * time from it, whatever its own clock says: expiry flips on all of them at the same instant.
 * Until a first measurement it is the process's clock.
 * @internal
 */
export class DatabaseClock {
  readonly #wallNow: () => number;
  #offsetMs = 0;
  #bestRoundTripMs = Number.POSITIVE_INFINITY;
  #measuredAt = Number.NEGATIVE_INFINITY;

  constructor(wallNow: () => number) {
    this.#wallNow = wallNow;
  }

  /** The database's time now, in ms since the epoch. */
  now(): number {
    return this.#wallNow() + this.#offsetMs;
  }

  /** The process's wall clock: read before a query is sent and after its answer, for {@link observe}. */
  wallNow(): number {
    return this.#wallNow();
  }

  /**
   * A query sent at wall time `sentAt` read the database time `databaseMs` and answered at
   * `receivedAt`. Kept when its round trip is the shortest seen in the last minute (the most
   * precise), or the last kept one is a minute old (clocks drift; the offset follows).
   */
  observe(databaseMs: number, sentAt: number, receivedAt: number): void {
    if (!Number.isFinite(databaseMs)) return;
    const roundTrip = Math.max(0, receivedAt - sentAt);
    if (roundTrip > this.#bestRoundTripMs && receivedAt - this.#measuredAt < 60_000) return;
    this.#bestRoundTripMs = roundTrip;
    this.#measuredAt = receivedAt;
    this.#offsetMs = databaseMs - (sentAt + roundTrip / 2);
  }
}
