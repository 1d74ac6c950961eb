/**
 * The store's clock: the time that decides expiry. Both the hot path ({@link KeyLookup}, which
 * refuses an expired key) and the writes ({@link KeyWrites}, which end a roll's grace) read it.
 */
export interface KeyClock {
  /**
   * The time that decides expiry, in ms since the epoch: the database's clock on PostgreSQL (the
   * offset measured with the cache lease, so every instance refuses a key at the same instant),
   * the process's (or an injected) clock in memory. Synchronous and cheap: the authenticator calls
   * it for every request made with an expiring key.
   */
  now(): number;
}
