import type { PostgresKeyStore } from '../postgres-key-store.js';

/**
 * Whether `store` answers `id` at once, from memory (under its lease), rather than with a promise
 * (a database round trip, or a wait for the lease). A promise is let run, its failure ignored: it
 * warms the cache for the next call.
 */
export function answersFromMemory(store: PostgresKeyStore, id: string): boolean {
  const answer = store.findActive(id);
  if (!(answer instanceof Promise)) return true;
  answer.catch(() => {});
  return false;
}
