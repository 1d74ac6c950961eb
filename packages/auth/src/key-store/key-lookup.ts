import type { KeyClock } from './key-clock.js';
import type { RequestInfo } from './key-event.js';
import type { ActiveKey } from './key-store.js';
import type { MethodList } from './method-list.js';

/**
 * What authentication needs of a store, on every request: the part `createAuthenticator` takes.
 * The least a store offers; writing one: https://github.com/drops-dev/drops-auth/blob/main/docs/key-stores.md
 *
 * Contract:
 * - A failure to reach the backing store rejects (the authenticator turns it into a 503); it
 *   never resolves `null` for a key it could not look up.
 * - `findActive` answers revoked and unknown ids the same way (`null`), on the same path.
 * - Revocation is linearizable: once a revocation has resolved, `findActive` on any store over
 *   the same data resolves `null`. No cache may answer for a key after a revoke elsewhere.
 *
 * @example
 * ```ts
 * const lookup: KeyLookup = new MemoryKeyStore();
 * await lookup.findActive(id); // { id, accountId: 'acct_1', expiresAt: null }, or null
 * ```
 */
export interface KeyLookup extends KeyClock {
  /**
   * The active (not revoked) key with this id, or `null` when it is unknown or revoked. A store
   * that answers from memory may return the value itself rather than a promise: the authenticator
   * then skips a promise round-trip on the hot path.
   */
  findActive(id: string): Promise<ActiveKey | null> | ActiveKey | null;
  /**
   * Notes that a key was used. Fire-and-forget: it must not block or fail the request. A store
   * that lists keys (`KeyWrites.listByAccount`) keeps it as `lastUsedAt`, written later, batched,
   * forward-only (a later time never goes back); a store of the hot path alone may keep nothing.
   *
   * A store with a `KeyEventLog` writes a `'first_used'` event at the first use of a key
   * (stored `lastUsedAt` still `null`), source `'api'`, actor the key id, with what `info` answers.
   * `info` is a thunk so the hot path stays cheap: a store calls it only for a use it keeps for
   * writing, at most once per kept use. A revocation writes this instance's kept uses first, so a
   * key's `'first_used'` event is never listed after its `'revoked'` one.
   */
  recordUse(id: string, at: Date, info?: () => RequestInfo): void;
  /**
   * Notes that a request came with the key `id` after its expiry. Fire-and-forget, as
   * {@link KeyLookup.recordUse}: it must not block or fail the request. A store with a
   * `KeyEventLog` writes the key's one `'expired'` event (at the key's `expiresAt`, source
   * `'api'`, actor the key id, with what `info` answers) unless one exists: idempotent across
   * calls and instances over the same data.
   */
  recordExpired(id: string, info?: () => RequestInfo): void;
}

/** The methods of {@link KeyLookup}, to check a store given at run time. @internal */
export const KEY_LOOKUP_METHODS = ['findActive', 'now', 'recordUse', 'recordExpired'] as const;
// Fails to compile unless the list names every method of KeyLookup.
const _complete: MethodList<KeyLookup, typeof KEY_LOOKUP_METHODS> = KEY_LOOKUP_METHODS;
