import type { KeyEventLog } from './key-event-log.js';
import type { KeyLookup } from './key-lookup.js';
import type { KeyWrites } from './key-writes.js';
import type { PendingRevocationQueue } from './pending-revocation-queue.js';

/** How a key was minted: the login behind it, for audit. Never a token. */
export interface KeyProvenance {
  /** The ID token's `sub`. */
  readonly subject: string;
  /** `firebase.sign_in_provider` of the ID token, e.g. `google.com`, when known. */
  readonly signInProvider: string | null;
  /** The ID token's `auth_time`, when present. */
  readonly authTime: Date | null;
}

/** What a store is given to create a key. The secret is never part of it. */
export interface NewKeyRecord {
  /** Lowercase hex SHA-256 of the secret. */
  readonly id: string;
  readonly accountId: string;
  /** First 10 characters of the secret. */
  readonly prefix: string;
  readonly name: string | null;
  readonly createdAt: Date;
  readonly provenance: KeyProvenance | null;
  /** When the key stops authenticating (by the store's clock, {@link KeyStore.now}); `null`: never. */
  readonly expiresAt: Date | null;
}

/** A key as listed to its owner. Never contains the secret. */
export interface KeyRecord {
  readonly id: string;
  readonly prefix: string;
  readonly name: string | null;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  /** When the key stops authenticating; `null`: never. */
  readonly expiresAt: Date | null;
}

/** What the hot path needs of an active key. */
export interface ActiveKey {
  readonly id: string;
  readonly accountId: string;
  /**
   * When the key stops authenticating, `null` for never. The authenticator compares it in memory
   * with {@link KeyStore.now}: an expired key is still "active" to the store (not revoked), and
   * refused with the uniform 401.
   */
  readonly expiresAt: Date | null;
}

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
