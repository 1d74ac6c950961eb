/**
 * What happened to a key: minted, revoked, used for the first time, expired (written once, when
 * a request first came with the key after its expiry; its `at` is the expiry), or rolled (replaced
 * by a new key, `POST /keys/<id>/roll`: it expires when the grace ends). `'sessions_revoked'`: the
 * account signed out everywhere (`DELETE /sessions`); its `at` is the cut-off, and it names no key
 * (`keyId` and `prefix` are empty).
 */
export type KeyEventType = 'minted' | 'revoked' | 'first_used' | 'expired' | 'rolled' | 'sessions_revoked';

/**
 * How it happened. `'api'`: the `/keys` routes, or a request authenticated with the key (its first
 * use). `'revoke_by_value'`: someone who held the secret sent it to `POST /credentials/revoke`.
 * `'github_secret_scanning'`: GitHub found the secret in a repository. `'operator'`: SQL
 * (`drops_auth_revoke_key`).
 */
export type KeyEventSource = 'api' | 'revoke_by_value' | 'github_secret_scanning' | 'operator';

/**
 * What the request behind an event shows: the client's address and `User-Agent`. Never a secret.
 *
 * @example
 * ```ts
 * const request: RequestInfo = { ip: req.ip, userAgent: req.get('user-agent') };
 * await keys.revoke(principal, id, request);
 * ```
 */
export interface RequestInfo {
  readonly ip?: string | null;
  readonly userAgent?: string | null;
}

/**
 * Who and where, as written with an event.
 *
 * @example
 * ```ts
 * const context: KeyEventContext = { source: 'api', actor: 'user_42', ip: '203.0.113.7', userAgent: 'curl/8.5.0', url: null };
 * await store.revoke('acct_1', keyId, { at: new Date(), event: context });
 * ```
 */
export interface KeyEventContext {
  readonly source: KeyEventSource;
  /**
   * The ID token's `sub`, or the id of the key that acted; `'github'` for secret scanning; `null`
   * when no credential acted (revoke by value).
   */
  readonly actor: string | null;
  readonly ip: string | null;
  readonly userAgent: string | null;
  /** Where the secret was found (secret scanning's `url`), else `null`. */
  readonly url: string | null;
}

/**
 * One entry of an account's key event log. Never holds a secret: the key is named by its id (a
 * hash) and its display prefix.
 *
 * @example
 * ```ts
 * const { events } = await store.listEvents('acct_1', { limit: 10 });
 * for (const e: KeyEvent of events) console.log(e.at.toISOString(), e.type, e.prefix, e.source);
 * ```
 */
export interface KeyEvent extends KeyEventContext {
  readonly type: KeyEventType;
  readonly keyId: string;
  readonly prefix: string;
  readonly name: string | null;
  readonly at: Date;
  /**
   * The key at the other end of a roll: on a `'rolled'` event the new key's id, on the `'minted'`
   * event of a key a roll minted the id of the key it replaces. Absent on every other event.
   */
  readonly relatedKeyId?: string;
}

/**
 * One page of events, newest first. `next` is the cursor of the following page, `null` on the last.
 *
 * @example
 * ```ts
 * let page: KeyEventPage = await store.listEvents('acct_1', { limit: 50 });
 * while (page.next !== null) page = await store.listEvents('acct_1', { limit: 50, cursor: page.next });
 * ```
 */
export interface KeyEventPage {
  readonly events: KeyEvent[];
  readonly next: string | null;
}

/** What `KeyStore.revokeMany` did with one id: revoked now, revoked before, or never a key. */
export type RevokeManyStatus = 'revoked' | 'already_revoked' | 'unknown';

/** Longest `ip` kept with an event; longer values are cut. */
export const MAX_EVENT_IP_LENGTH = 64;
/** Longest `userAgent` kept with an event; longer values are cut. */
export const MAX_EVENT_USER_AGENT_LENGTH = 256;
/** Longest `url` (or `actor`) kept with an event; longer values are cut. */
export const MAX_EVENT_URL_LENGTH = 2048;

function bounded(value: unknown, max: number): string | null {
  if (typeof value !== 'string' || value.length === 0) return null;
  return value.length > max ? value.slice(0, max) : value;
}

/**
 * The context of an event from what a request shows: strings kept (cut to a bounded length, so an
 * event and a waiting use stay small), anything else `null`.
 * @internal
 */
export function eventContextOf(
  source: KeyEventSource,
  actor: string | null,
  request: RequestInfo | null | undefined,
  url: string | null = null,
): KeyEventContext {
  return {
    source,
    actor: bounded(actor, MAX_EVENT_URL_LENGTH),
    ip: bounded(request?.ip, MAX_EVENT_IP_LENGTH),
    userAgent: bounded(request?.userAgent, MAX_EVENT_USER_AGENT_LENGTH),
    url: bounded(url, MAX_EVENT_URL_LENGTH),
  };
}

/**
 * Calls a request-info thunk from `recordUse` and keeps what an event may hold. A thunk that throws
 * or answers nonsense costs the event its request details, never the request.
 * @internal
 */
export function requestInfoFrom(info: (() => RequestInfo) | undefined): { ip: string | null; userAgent: string | null } {
  if (info === undefined) return { ip: null, userAgent: null };
  let value: RequestInfo | undefined;
  try {
    value = info();
  } catch {
    return { ip: null, userAgent: null };
  }
  return {
    ip: bounded(value?.ip, MAX_EVENT_IP_LENGTH),
    userAgent: bounded(value?.userAgent, MAX_EVENT_USER_AGENT_LENGTH),
  };
}

/** The context a store writes when a caller gives none: the `/keys` API, no actor known. @internal */
export const UNATTRIBUTED_API_EVENT: KeyEventContext = Object.freeze({
  source: 'api',
  actor: null,
  ip: null,
  userAgent: null,
  url: null,
});
