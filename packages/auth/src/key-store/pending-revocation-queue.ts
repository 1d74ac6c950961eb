import type { MethodList } from './method-list.js';
import type { NewPendingRevocationRequest, PendingRevocationRequest } from './pending-revocation-request.js';

/**
 * Revocations by value recorded to carry out later, so that `POST /credentials/revoke` answers
 * after the same work whatever the secrets were: part of what `createKeyManager` takes. The key
 * manager records a request, then revokes its keys with `KeyWrites.revokeMany` and completes it;
 * a request a crash left is carried out by the next process.
 *
 * @example
 * ```ts
 * await queue.recordRevocationRequest({ keyIds: [keyId], at: new Date(), event });
 * for (const { id } of await queue.pendingRevocationRequests({ limit: 100 })) await queue.completeRevocationRequest({ id });
 * ```
 */
export interface PendingRevocationQueue {
  /**
   * Durably records a revocation by value to carry out later (with `revokeMany`). The record
   * survives a crash and a restart until `completeRevocationRequest`.
   */
  recordRevocationRequest(request: NewPendingRevocationRequest): Promise<void>;
  /** The recorded revocations not yet completed, oldest first, at most `limit`. */
  pendingRevocationRequests(options: { readonly limit: number }): Promise<PendingRevocationRequest[]>;
  /** Forgets a recorded revocation once carried out; nothing happens for an id it does not hold. */
  completeRevocationRequest(options: { readonly id: string }): Promise<void>;
}

/** The methods of {@link PendingRevocationQueue}, to check a store given at run time. @internal */
export const PENDING_REVOCATION_QUEUE_METHODS = [
  'recordRevocationRequest',
  'pendingRevocationRequests',
  'completeRevocationRequest',
] as const;
// Fails to compile unless the list names every method of PendingRevocationQueue.
const _complete: MethodList<PendingRevocationQueue, typeof PENDING_REVOCATION_QUEUE_METHODS> = PENDING_REVOCATION_QUEUE_METHODS;
