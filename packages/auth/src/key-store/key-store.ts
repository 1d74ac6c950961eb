import type { KeyEventContext, KeyEventPage, RequestInfo, RevokeManyStatus } from './key-event.js';
import type { ActiveKey, KeyRecord, NewKeyRecord } from './key-record.js';
import type { NewPendingRevocationRequest, PendingRevocationRequest } from './pending-revocation-request.js';

// The record types the contract is written in, defined once in key-record.ts.
export type { ActiveKey, KeyProvenance, KeyRecord, NewKeyRecord } from './key-record.js';

/**
 * How the instances took one revocation, from a store with a cache that other instances hold
 * (PostgreSQL's lease-coherent cache): what `KeyStore.revoke` and `revokeMany` hand their `report`
 * argument. The core publishes it on `drops-auth:revocation` (`RevocationMessage`).
 *
 * @example
 * ```ts
 * const receipts: RevocationReceipt[] = [];
 * await store.revoke('acct_1', keyId, { at: new Date(), report: (receipt) => receipts.push(receipt) });
 * // [{ instancesAcknowledged: 3, leasesExpired: 0 }] on PostgreSQL with three instances; [] on a store that does not report
 * ```
 */
export interface RevocationReceipt {
  /** Instances (lease holders, the revoking one included) that acknowledged the revocation. */
  readonly instancesAcknowledged: number;
  /** Instances that were waited on and whose lease expired instead of acknowledging (partitioned, paused, killed). */
  readonly leasesExpired: number;
}

/**
 * Hands a store's {@link RevocationReceipt} to the core: the `report` of {@link RevokeOptions}. A
 * store that knows how the instances took the revocation calls it once, before it resolves.
 */
export type ReportRevocation = (receipt: RevocationReceipt) => void;

/**
 * The options of `KeyStore.revoke`.
 *
 * @example
 * ```ts
 * await store.revoke('acct_1', keyId, { at: new Date(), event: { source: 'api', actor: 'user_42', ip: null, userAgent: null, url: null } });
 * ```
 */
export interface RevokeOptions {
  /** When the key is revoked: written as `revoked_at` and as the `'revoked'` event's `at`. */
  readonly at: Date;
  /** Who and where, for the `'revoked'` event. Default: source `'api'`, no actor. */
  readonly event?: KeyEventContext;
  /**
   * Called at most once, before the call resolves, by a store whose cache other instances hold
   * (PostgreSQL's lease-coherent cache) with how the instances took the revocation; a store
   * without such a cache never calls it. The core publishes it on `drops-auth:revocation`.
   */
  readonly report?: ReportRevocation;
}

/**
 * The options of `KeyStore.revokeMany`: as {@link RevokeOptions}, with the event required (a
 * revocation by value always says where it came from).
 *
 * @example
 * ```ts
 * await store.revokeMany([keyId], { at: new Date(), event: { source: 'revoke_by_value', actor: null, ip: null, userAgent: null, url: null } });
 * ```
 */
export interface RevokeManyOptions extends RevokeOptions {
  readonly event: KeyEventContext;
}

/**
 * What `KeyStore.roll` is given: the new key, the old one's id, and when the old key's grace ends.
 *
 * @example
 * ```ts
 * await store.roll({ oldId, key: newKey, graceEndsAt: new Date(store.now() + 86_400_000), maxActive: 1000, event });
 * ```
 */
export interface RollKeyOptions {
  /** The key rolled: one of `key.accountId`'s active, unexpired keys not rolled before. */
  readonly oldId: string;
  /** The new key: minted as `createWithinLimit` mints, its `'minted'` event naming `oldId` (`relatedKeyId`). */
  readonly key: NewKeyRecord;
  /** The old key expires then, or at its own `expiresAt` when that is sooner. */
  readonly graceEndsAt: Date;
  /** Active keys the account may hold, the new one included (the grace keeps the old one active). */
  readonly maxActive: number;
  /** Who and where, for the new key's `'minted'` event and the old key's `'rolled'` event. */
  readonly event: KeyEventContext;
}

/**
 * What `KeyStore.roll` did: `'rolled'` (with the old key's expiry now), or nothing, because the
 * account has no such active unexpired key (`'not_found'`), the key was rolled before
 * (`'already_rolled'`) or the account is at `maxActive` (`'limit'`).
 */
export type RollKeyResult =
  | { readonly status: 'rolled'; readonly oldExpiresAt: Date }
  | { readonly status: 'not_found' | 'already_rolled' | 'limit' };

/**
 * Where keys live. Implementations: {@link MemoryKeyStore} here, `PostgresKeyStore` in
 * `@drops/auth-postgres`. Every method is required, and every implementation runs the conformance
 * suite of `@drops/auth/testing/conformance` (writing one: https://github.com/drops-dev/drops-auth/blob/main/docs/key-stores.md).
 *
 * Contract:
 * - A failure to reach the backing store rejects (the authenticator turns it into a 503); it
 *   never resolves `null` for a key it could not look up.
 * - `findActive` answers revoked and unknown ids the same way (`null`), on the same path.
 * - Revocation is linearizable: once `revoke` has resolved `true`, `findActive` on any store over
 *   the same data resolves `null`. No cache may answer for a key after a revoke elsewhere.
 *
 * @example
 * ```ts
 * const store: KeyStore = new MemoryKeyStore();
 * await store.create({ id, accountId: 'acct_1', prefix, name: 'ci', createdAt: new Date(), provenance: null, expiresAt: null });
 * await store.findActive(id); // { id, accountId: 'acct_1', expiresAt: null }
 * ```
 */
export interface KeyStore {
  /**
   * Stores a new active key. Rejects if the id already exists. Writes a `'minted'` event with
   * `event` (default: source `'api'`, actor the provenance's subject) in the same transaction.
   */
  create(key: NewKeyRecord, event?: KeyEventContext): Promise<void>;
  /**
   * Stores a new active key only if its account holds fewer than `maxActive` active keys, and
   * resolves whether it did: `false` means the account is at the limit and nothing was stored.
   * Rejects as `create` does, and writes the `'minted'` event as `create` does. Atomic: concurrent
   * calls for one account never leave it with more than `maxActive` active keys, on any store over
   * the same data (on PostgreSQL, mints of one account take turns on a transaction-scoped advisory
   * lock).
   */
  createWithinLimit(key: NewKeyRecord, maxActive: number, event?: KeyEventContext): Promise<boolean>;
  /**
   * The active (not revoked) key with this id, or `null` when it is unknown or revoked. A store
   * that answers from memory may return the value itself rather than a promise: the authenticator
   * then skips a promise round-trip on the hot path.
   */
  findActive(id: string): Promise<ActiveKey | null> | ActiveKey | null;
  /** The account's active keys, newest first. */
  listByAccount(accountId: string): Promise<KeyRecord[]>;
  /**
   * Revokes the account's active key with this id. Resolves `true` when it was revoked by this
   * call, `false` when the account has no active key with that id. A revocation writes a
   * `'revoked'` event with `options.event` at `options.at` in the same transaction: both are kept
   * or neither. Resolves once no instance over the same data accepts the key; `options.report`
   * gets at most one receipt of how the instances took it.
   */
  revoke(accountId: string, id: string, options: RevokeOptions): Promise<boolean>;
  /**
   * Rolls a key, atomically (one transaction on PostgreSQL): stores `options.key` as
   * `createWithinLimit` would (the same account lock and limit), and moves the old key's expiry to
   * `graceEndsAt` (never later than its own), marking it rolled: a key is rolled at most once.
   * Writes the new key's `'minted'` event and the old key's `'rolled'` event, each naming the
   * other (`relatedKeyId`). Resolves once every instance over the same data accepts the new key
   * and refuses the old one from its new expiry (the wait of `revoke`); nothing changes unless it
   * resolves `'rolled'`.
   */
  roll(options: RollKeyOptions): Promise<RollKeyResult>;
  /**
   * Revokes every active key of the account in one transaction, with one `'revoked'` event each,
   * and resolves how many it revoked once no instance accepts any of them (one wait, as `revoke`'s).
   * Serial with the account's `createWithinLimit` and `roll` on any store over the same data (on
   * PostgreSQL it takes their account lock): a key one of them stores is revoked and counted, or
   * stored after, never stored unseen while its old key is revoked.
   */
  revokeAll(accountId: string, options: RevokeOptions): Promise<number>;
  /**
   * Revokes every active key among `ids`, of any account (revocation by value: whoever holds a
   * secret may kill it). One `'revoked'` event per key revoked, in the same transaction as its
   * revocation. Resolves, once no instance accepts any of the keys (the same wait as `revoke`),
   * with one entry per distinct id, in the order of first appearance: `'revoked'` by this call,
   * `'already_revoked'`, or `'unknown'`. `options.report` gets at most one receipt for the whole
   * call (one wait covers the batch).
   */
  revokeMany(ids: readonly string[], options: RevokeManyOptions): Promise<{ id: string; status: RevokeManyStatus }[]>;
  /**
   * Durably records a revocation by value to carry out later (with `revokeMany`), so that
   * `POST /credentials/revoke` answers after the same work whatever the secrets were. The record
   * survives a crash and a restart until `completeRevocationRequest`.
   */
  recordRevocationRequest(request: NewPendingRevocationRequest): Promise<void>;
  /** The recorded revocations not yet completed, oldest first, at most `limit`. */
  pendingRevocationRequests(options: { readonly limit: number }): Promise<PendingRevocationRequest[]>;
  /** Forgets a recorded revocation once carried out; nothing happens for an id it does not hold. */
  completeRevocationRequest(options: { readonly id: string }): Promise<void>;
  /**
   * The account's key events, newest first, at most `limit`. `cursor` is an opaque string from a
   * previous page's `next`; a malformed one rejects with `InvalidRequestError` (a 400). Only the
   * account's own events, never another's.
   */
  listEvents(accountId: string, page: { readonly limit: number; readonly cursor?: string }): Promise<KeyEventPage>;
  /**
   * Notes that a key was used. Fire-and-forget: it must not block or fail the request; stores
   * write it later, batched, forward-only (a later time never goes back).
   *
   * The first use of a key (stored `lastUsedAt` still `null`) writes a `'first_used'` event
   * (source `'api'`, actor the key id) with what `info` answers. `info` is a thunk so the hot path
   * stays cheap: a store calls it only for a use it keeps for writing, at most once per kept use.
   */
  recordUse(id: string, at: Date, info?: () => RequestInfo): void;
  /**
   * The time that decides expiry, in ms since the epoch: the database's clock on PostgreSQL (the
   * offset measured with the cache lease, so every instance refuses a key at the same instant),
   * the process's (or an injected) clock in memory. Synchronous and cheap: the authenticator calls
   * it for every request made with an expiring key.
   */
  now(): number;
  /**
   * Notes that a request came with the key `id` after its expiry. Fire-and-forget, as
   * {@link KeyStore.recordUse}: it must not block or fail the request. Writes the key's one
   * `'expired'` event (at the key's `expiresAt`, source `'api'`, actor the key id, with what `info`
   * answers) unless one exists: idempotent across calls and instances over the same data.
   */
  recordExpired(id: string, info?: () => RequestInfo): void;
  /** Flushes pending writes and releases resources. */
  close(): Promise<void>;
}
