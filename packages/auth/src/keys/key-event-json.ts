import type { KeyEvent, KeyEventSource, KeyEventType } from '../key-store/key-event.js';

/**
 * A key event as it goes over the wire in `GET /keys/events`: the date as an ISO 8601 string,
 * `url` only when the event has one. Never a secret.
 */
export interface KeyEventJson {
  readonly type: KeyEventType;
  readonly keyId: string;
  readonly prefix: string;
  readonly name: string | null;
  readonly at: string;
  readonly source: KeyEventSource;
  readonly actor: string | null;
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly url?: string;
  /** On the `'minted'` event of a key a roll minted: the id of the key it replaces. */
  readonly replaces?: string;
  /** On a `'rolled'` event: the id of the key that replaced this one. */
  readonly rolledTo?: string;
}

/**
 * A {@link KeyEvent} as JSON for `GET /keys/events`; the two events of a roll name each other
 * (`rolledTo` on the old key's `'rolled'`, `replaces` on the new key's `'minted'`).
 *
 * @example
 * ```ts
 * const { events, next } = await store.listEvents(accountId, { limit: 50 });
 * res.json({ events: events.map(toKeyEventJson), next });
 * // { events: [{ type: 'revoked', keyId: '…', prefix: 'hp_AbCdEfG', name: 'ci', at: '2026-…', source: 'github_secret_scanning', actor: 'github', ip: null, userAgent: null, url: 'https://github.com/…' }], next: null }
 * ```
 */
export function toKeyEventJson(event: KeyEvent): KeyEventJson {
  const json: KeyEventJson = {
    type: event.type,
    keyId: event.keyId,
    prefix: event.prefix,
    name: event.name,
    at: event.at.toISOString(),
    source: event.source,
    actor: event.actor,
    ip: event.ip,
    userAgent: event.userAgent,
  };
  const withUrl = event.url === null ? json : { ...json, url: event.url };
  if (event.relatedKeyId === undefined) return withUrl;
  return event.type === 'rolled' ? { ...withUrl, rolledTo: event.relatedKeyId } : { ...withUrl, replaces: event.relatedKeyId };
}
