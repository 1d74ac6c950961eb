import type { KeyEventContext } from './key-event.js';
import type { ReportRevocation } from './key-writes.js';
import type { MethodList } from './method-list.js';

/**
 * The options of {@link SessionCutoffs.signOutEverywhere}.
 *
 * @example
 * ```ts
 * await store.signOutEverywhere('acct_1', { at: new Date(store.now()), event: { source: 'api', actor: 'user_42', ip: null, userAgent: null, url: null } });
 * ```
 */
export interface SignOutOptions {
  /** The cut-off: ID tokens signed in at or before it are refused. */
  readonly at: Date;
  /** Who and where, for the `'sessions_revoked'` event. */
  readonly event: KeyEventContext;
  /** As for `KeyStore.revoke`: at most one receipt of how the instances took it, before resolving. */
  readonly report?: ReportRevocation;
}

/**
 * Sign-out everywhere (`DELETE /sessions`, https://github.com/drops-dev/drops-auth/blob/main/docs/concepts.md#signing-out-everywhere):
 * each account's cut-off, before which its ID tokens' sign-ins are refused. A part of its own, apart
 * from the key contract: `MemoryKeyStore` and `PostgresKeyStore` implement it, and
 * `createAuthenticator` uses it when its `keyStore` does (or when given as `sessionCutoffs`).
 *
 * Contract:
 * - {@link signOutEverywhere} is forward-only (a later cut-off wins; an earlier one changes
 *   nothing), writes one `'sessions_revoked'` event, and resolves the cut-off in force once no
 *   instance over the same data accepts an ID token signed in at or before it.
 * - {@link sessionCutoff} answers from memory: the value itself, never a query per request. It may
 *   return a promise only while the store cannot answer yet (starting); it rejects (a 503) rather
 *   than answer from stale data.
 *
 * @example
 * ```ts
 * const store = new MemoryKeyStore();
 * const cutoff = await store.signOutEverywhere('acct_1', { at: new Date(), event });
 * store.sessionCutoff('acct_1'); // cutoff.getTime()
 * ```
 */
export interface SessionCutoffs {
  /** Ends every sign-in of the account at or before `options.at`; resolves the cut-off in force. */
  signOutEverywhere(accountId: string, options: SignOutOptions): Promise<Date>;
  /** The account's cut-off in ms since the epoch, or `null` when it never signed out everywhere. */
  sessionCutoff(accountId: string): number | null | Promise<number | null>;
}

/** The methods of {@link SessionCutoffs}, to check a store given at run time. @internal */
export const SESSION_CUTOFFS_METHODS = ['signOutEverywhere', 'sessionCutoff'] as const;
// Fails to compile unless the list names every method of SessionCutoffs.
const _complete: MethodList<SessionCutoffs, typeof SESSION_CUTOFFS_METHODS> = SESSION_CUTOFFS_METHODS;

/** Whether `value` implements {@link SessionCutoffs}. @internal */
export function hasSessionCutoffs(value: unknown): value is SessionCutoffs {
  return SESSION_CUTOFFS_METHODS.every((m) => typeof (value as Record<string, unknown> | null | undefined)?.[m] === 'function');
}

/**
 * Whether an ID token's sign-in is cut off: its sign-in time (`auth_time`, else `iat`, in seconds)
 * at or before the cut-off (ms). @internal
 */
export function signedInBefore(cutoffMs: number | null, authTime: number | undefined, iat: number): boolean {
  return cutoffMs !== null && (authTime ?? iat) * 1000 <= cutoffMs;
}
