import type { KeyEventPage } from './key-event.js';
import type { MethodList } from './method-list.js';

/**
 * The account's history of its keys (`GET /keys/events`): what `KeyWrites` and `KeyLookup`'s
 * notes wrote, read back a page at a time. Part of what `createKeyManager` takes.
 *
 * @example
 * ```ts
 * const { events, next } = await store.listEvents('acct_1', { limit: 50 });
 * ```
 */
export interface KeyEventLog {
  /**
   * The account's key events, newest first, at most `limit`. `cursor` is an opaque string from a
   * previous page's `next`; a malformed one rejects with `InvalidRequestError` (a 400). Only the
   * account's own events, never another's.
   */
  listEvents(accountId: string, page: { readonly limit: number; readonly cursor?: string }): Promise<KeyEventPage>;
}

/** The methods of {@link KeyEventLog}, to check a store given at run time. @internal */
export const KEY_EVENT_LOG_METHODS = ['listEvents'] as const;
// Fails to compile unless the list names every method of KeyEventLog.
const _complete: MethodList<KeyEventLog, typeof KEY_EVENT_LOG_METHODS> = KEY_EVENT_LOG_METHODS;
