import type { CredentialType } from '../authenticator/principal.js';
import type { UnauthenticatedReason } from '../errors/unauthenticated-error.js';
import type { UnavailableDependency } from '../errors/unavailable-error.js';

/**
 * The `node:diagnostics_channel` channels `@drops/auth` publishes on. Subscribe by name with
 * `diagnostics_channel.subscribe(name, listener)`; with no subscriber nothing is measured or built.
 * No message ever holds a secret or a token: key ids (hashes) at most.
 *
 * @example
 * ```ts
 * import { subscribe } from 'node:diagnostics_channel';
 * import { DIAGNOSTICS_CHANNELS, type AuthenticateMessage } from '@drops/auth';
 *
 * subscribe(DIAGNOSTICS_CHANNELS.authenticate, (message) => {
 *   const { credential, outcome, reason, durationMs } = message as AuthenticateMessage;
 *   if (outcome === 'refused') console.log(`401 (${reason}) for a ${credential ?? 'missing'} credential in ${durationMs} ms`);
 * });
 * ```
 */
export const DIAGNOSTICS_CHANNELS = Object.freeze({
  /** One {@link AuthenticateMessage} per `authenticate()` / `authenticateOptional()` call. */
  authenticate: 'drops-auth:authenticate',
  /** One {@link JwksFetchMessage} per fetch of an identity provider's key set. */
  jwksFetch: 'drops-auth:jwks-fetch',
  /** One {@link JwksKeySkippedMessage} per key of a fetched key set that is never trusted (weak, or not for signatures). */
  jwksKeySkipped: 'drops-auth:jwks-key-skipped',
  /** One {@link KeyStoreMessage} per key store call made by the authenticator or the key manager. */
  keyStore: 'drops-auth:key-store',
  /**
   * One {@link RevocationMessage} per key revoked through the key manager: `KeyManager.revoke` (by
   * id, also when it ends in a 404 or a 503), and `KeyManager.revokeBySecret` (by value:
   * `POST /credentials/revoke` and GitHub secret scanning), one per key that call revoked.
   */
  revocation: 'drops-auth:revocation',
} as const);

/** On `drops-auth:authenticate`: how one authentication ended. */
export interface AuthenticateMessage {
  /** The credential presented; `null` when there was none or it was neither kind (malformed). */
  readonly credential: CredentialType | null;
  /**
   * `authenticated`; `anonymous` (no `Authorization` header where that is allowed); `refused`
   * (the uniform 401); `unavailable` (a 503: a dependency could not answer); `error` (an
   * unexpected failure of a hook such as `resolveAccount`).
   */
  readonly outcome: 'authenticated' | 'anonymous' | 'refused' | 'unavailable' | 'error';
  /** Why: the 401's reason, or the dependency that failed for a 503; `null` otherwise. */
  readonly reason: UnauthenticatedReason | UnavailableDependency | null;
  /** From the call until the outcome was known, in milliseconds. */
  readonly durationMs: number;
}

/** On `drops-auth:jwks-fetch`: one fetch of an identity provider's JSON Web Key Set. */
export interface JwksFetchMessage {
  /** The key set's URL (public). */
  readonly url: string;
  /** `fetched` (and imported); `failed` (network error, timeout, non-2xx, unusable document). */
  readonly outcome: 'fetched' | 'failed';
  /** Keys usable after the fetch; `null` when it failed. */
  readonly keyCount: number | null;
  readonly durationMs: number;
  /** Why it failed; `null` when it did not. */
  readonly error: unknown;
}

/**
 * Why a key of an identity provider's key set is never used: `weak_rsa_modulus` (under 2048
 * bits), `weak_rsa_exponent` (other than 65537, as e=1 lets anyone forge signatures),
 * `roca_modulus` (the ROCA fingerprint, CVE-2017-15361: its private key can be computed),
 * `not_for_signatures` (`use` other than `sig`), `not_for_verification` (`key_ops` without
 * `verify`), `invalid_key` (not a public key of its type, e.g. an EC point off its curve),
 * `unsupported` (a key type, curve or `alg` the verifier does not accept).
 */
export type JwksKeySkipReason =
  | 'weak_rsa_modulus'
  | 'weak_rsa_exponent'
  | 'roca_modulus'
  | 'not_for_signatures'
  | 'not_for_verification'
  | 'invalid_key'
  | 'unsupported';

/**
 * On `drops-auth:jwks-key-skipped`: one key of a fetched key set that was left out. The good keys
 * beside it keep working; a token naming it is refused as if its `kid` were unknown.
 */
export interface JwksKeySkippedMessage {
  /** The key set's URL (public). */
  readonly url: string;
  /** The key's `kid` (public). A key without one is never used and not reported. */
  readonly kid: string;
  readonly reason: JwksKeySkipReason;
}

/**
 * The key store operations the core calls and reports: `create` is also `createWithinLimit` (a mint
 * under the key limit); `revokeMany` is `KeyManager.revokeBySecret`'s revocation; `listEvents` is
 * `KeyManager.events`.
 */
export type KeyStoreOperation =
  | 'findActive'
  | 'create'
  | 'listByAccount'
  | 'revoke'
  | 'revokeMany'
  | 'roll'
  | 'revokeAll'
  | 'signOutEverywhere'
  | 'listEvents'
  | 'recordRevocationRequest'
  | 'pendingRevocationRequests'
  | 'completeRevocationRequest';

/** On `drops-auth:key-store`: one call to the key store. */
export interface KeyStoreMessage {
  readonly operation: KeyStoreOperation;
  readonly durationMs: number;
  /** What the store threw or rejected with (stores only ever see key ids, never a secret); `null` on success. */
  readonly error: unknown;
  /**
   * `true` when the store answered at once, from memory (no promise); `false` when it answered with
   * a promise: a round trip to its database, or a wait. A flood of unknown keys that reaches the
   * database shows here, as `findActive` calls with `fromMemory: false`.
   */
  readonly fromMemory: boolean;
}

/**
 * On `drops-auth:revocation`: one key revoked (or a revoke by id that ended otherwise), and how
 * long the revoker waited for it.
 *
 * By id (`KeyManager.revoke`), every call that reaches the store publishes one message: `revoked`,
 * `not_found` or `failed`. By value (`KeyManager.revokeBySecret`), only the keys the call revoked
 * are published, each `revoked`: an entry that names no active key (unknown, already revoked,
 * not key-shaped) and a call the store failed publish nothing here. Those entries come from
 * callers without a credential; naming them would let anyone fill operators' metrics, and the
 * key id of an unknown entry names a string that was never a key of this service. A failed call
 * is on `drops-auth:key-store` (operation `revokeMany`, with its error), and its caller gets a 503.
 */
export interface RevocationMessage {
  /** The key's id (a hash, safe to log): never the secret, even for a revocation by value. */
  readonly keyId: string;
  /** `revoked`; `not_found` (no active key of the account with that id: a 404); `failed` (the store could not answer: a 503). */
  readonly outcome: 'revoked' | 'not_found' | 'failed';
  /**
   * How long the revoke waited, in milliseconds: the store's write plus, for a store with a
   * lease-coherent cache, the wait for every instance holding a lease to acknowledge or expire.
   * By value, every key of one call carries that call's duration (one wait covers the batch).
   */
  readonly durationMs: number;
  /**
   * Instances that acknowledged the revocation (the revoking one included), as the store reports
   * it (`RevocationReceipt`, from `PostgresKeyStore` on PostgreSQL and PGlite); `null` when the
   * store does not report it (`MemoryKeyStore`: no other instance) or the store failed.
   */
  readonly instancesAcknowledged: number | null;
  /**
   * Instances the revocation waited on whose lease expired instead of acknowledging (partitioned,
   * paused, killed): each one held the revoke up to a lease. `null` as for `instancesAcknowledged`.
   */
  readonly leasesExpired: number | null;
}
