import type { KeyEventInfo } from './api.js';

/**
 * An event in words: what happened (`Revoked`) and how (`found in a public repository at`, then
 * the link).
 */
export interface EventText {
  readonly title: string;
  /** How, by whom, from where; empty when nothing is known. */
  readonly detail: string;
  /** The place the key was found (secret scanning), shown after `detail` as a link: `https:` or `http:` only. */
  readonly link: string | null;
}

const TITLES: Record<string, string> = {
  minted: 'Minted',
  first_used: 'First used',
  revoked: 'Revoked',
  expired: 'Expired',
  rolled: 'Rolled',
  sessions_revoked: 'Signed out everywhere',
};

/** A key named by the start of its id (events carry the other key of a roll by id only). */
const keyNamed = (id: string): string => `key ${id.slice(0, 12)}…`;

/** The other key of a roll: the one that replaced this key, or the one this key replaced. */
function rollOf(event: KeyEventInfo): string | null {
  if (event.type === 'rolled' && event.rolledTo !== undefined) return `replaced by ${keyNamed(event.rolledTo)}`;
  if (event.type === 'minted' && event.replaces !== undefined) return `replaces ${keyNamed(event.replaces)}`;
  return null;
}
const KEY_ID = /^[0-9a-f]{64}$/;

function linkOf(url: string | undefined): string | null {
  if (url === undefined) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** Who acted: the subject of an ID token, or a key (the event's own, or another one). */
function actorOf(event: KeyEventInfo): string | null {
  if (event.actor === null) return null;
  if (event.actor === event.keyId) return 'with the key itself';
  if (KEY_ID.test(event.actor)) return 'with another API key';
  return `by ${event.actor}`;
}

function revokedHow(event: KeyEventInfo): string | null {
  switch (event.source) {
    case 'revoke_by_value':
      return 'by value: someone who held the key sent it to be revoked';
    case 'operator':
      return 'by an operator';
    default:
      return actorOf(event);
  }
}

/**
 * The words for a key event in the dashboard's list, e.g. `Revoked` + `found in a public
 * repository at` + a link to `https://github.com/…`, `Minted` + `by alice, from 203.0.113.7`, `First used` +
 * `from 203.0.113.7 (curl/8.5.0)`, `Rolled` + `replaced by key 3f0c12ab9d4e…, by alice`. Unknown types and sources (a newer server) still read sensibly.
 */
export function eventText(event: KeyEventInfo): EventText {
  const title = TITLES[event.type] ?? event.type;
  // The key reached its expiry: no one acted, and the request that noticed it is nobody's business.
  if (event.type === 'expired') return { title, detail: '', link: null };
  if (event.source === 'github_secret_scanning') {
    // The address is GitHub's, not the leaker's: where the key was found is what matters.
    const link = linkOf(event.url);
    if (event.url === undefined) return { title, detail: 'found in a public repository by GitHub secret scanning', link: null };
    return link !== null
      ? { title, detail: 'found in a public repository at', link }
      : { title, detail: `found in a public repository at ${event.url}`, link: null };
  }
  const parts: string[] = [];
  const roll = rollOf(event);
  if (roll !== null) parts.push(roll);
  if (event.type === 'revoked') {
    const how = revokedHow(event);
    if (how !== null) parts.push(how);
  } else if (event.type !== 'first_used') {
    const who = actorOf(event);
    if (who !== null) parts.push(who);
  }
  if (event.ip !== null && event.ip !== '') {
    parts.push(`from ${event.ip}${event.type === 'first_used' && event.userAgent ? ` (${event.userAgent})` : ''}`);
  }
  return { title, detail: parts.join(', '), link: null };
}
