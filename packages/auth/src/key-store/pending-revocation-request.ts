import type { KeyEventContext } from './key-event.js';

/**
 * A revocation by value (`POST /credentials/revoke`) as `KeyStore.recordRevocationRequest`
 * records it before the route answers: the key ids to revoke, when, and who asked (the
 * `'revoked'` events are written with it when the request is carried out).
 *
 * @example
 * ```ts
 * const request: NewPendingRevocationRequest = {
 *   keyIds: ['5f0c…'],
 *   at: new Date(),
 *   event: { source: 'revoke_by_value', actor: null, ip: '203.0.113.7', userAgent: 'curl/8', url: null },
 * };
 * ```
 */
export interface NewPendingRevocationRequest {
  /** Key ids (lowercase hex SHA-256 of the secrets), any number, duplicates allowed. */
  readonly keyIds: readonly string[];
  readonly at: Date;
  readonly event: KeyEventContext;
}

/**
 * A recorded revocation by value not yet carried out, as `KeyStore.pendingRevocationRequests`
 * lists it.
 *
 * @example
 * ```ts
 * for (const pending of await store.pendingRevocationRequests({ limit: 100 })) {
 *   await store.revokeMany(pending.keyIds, pending.at, pending.event);
 *   await store.completeRevocationRequest({ id: pending.id });
 * }
 * ```
 */
export interface PendingRevocationRequest extends NewPendingRevocationRequest {
  /** The record's id in its store: opaque, for `completeRevocationRequest`. */
  readonly id: string;
}
