import type { KeyEventLog } from './key-event-log.js';
import type { KeyLookup } from './key-lookup.js';
import type { KeyWrites } from './key-writes.js';
import type { PendingRevocationQueue } from './pending-revocation-queue.js';

// The record types the contract is written in, defined once in key-record.ts.
export type { ActiveKey, KeyProvenance, KeyRecord, NewKeyRecord } from './key-record.js';

/**
 * A whole store: every part the core takes, and `close`. Implementations: {@link MemoryKeyStore}
 * here, `PostgresKeyStore` in `@drops/auth-postgres`; each runs `describeKeyStoreConformance` of
 * `@drops/auth/testing/conformance`. A store may offer fewer parts: `createAuthenticator` takes a
 * {@link KeyLookup} alone (writing one: https://github.com/drops-dev/drops-auth/blob/main/docs/key-stores.md).
 *
 * @example
 * ```ts
 * const store: KeyStore = new MemoryKeyStore();
 * await store.create({ id, accountId: 'acct_1', prefix, name: 'ci', createdAt: new Date(), provenance: null, expiresAt: null });
 * await store.findActive(id); // { id, accountId: 'acct_1', expiresAt: null }
 * ```
 */
export interface KeyStore extends KeyLookup, KeyWrites, KeyEventLog, PendingRevocationQueue {
  /** Flushes pending writes and releases resources. */
  close(): Promise<void>;
}
