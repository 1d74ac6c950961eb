/**
 * The change messages of the lease-coherent cache (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md),
 * once: what the triggers NOTIFY and what every listener applies. A payload is
 * `<revision>:<marker><body>`; the marker says what changed, the body names it. The SQL side
 * writes its markers from {@link sqlMarker}, the TypeScript side reads every payload through
 * {@link decodeChange}, so the two cannot drift.
 * @internal
 */
export type KeyChange =
  /** An active key went (revoked, deleted, its id or account changed). */
  | { readonly kind: 'key_gone'; readonly id: string }
  /** A key became active (minted, or a revocation undone). */
  | { readonly kind: 'key_minted'; readonly id: string }
  /** An active key changed and stays active (its expiry changed): cached copies are stale. */
  | { readonly kind: 'key_changed'; readonly id: string }
  /** The key table was truncated: every key went. */
  | { readonly kind: 'keys_truncated' }
  /** Too many changes in one transaction to announce one by one: re-read everything. */
  | { readonly kind: 'bulk_change' }
  /**
   * An account's sign-out cut-off: ID tokens signed in at or before `validAfterMs` are refused;
   * `null` when the cut-off was deleted.
   */
  | { readonly kind: 'session_cutoff'; readonly accountId: string; readonly validAfterMs: number | null };

/** What a {@link KeyChange} can be. @internal */
export type KeyChangeKind = KeyChange['kind'];

/**
 * Each kind's marker, the fact both sides derive from. `key_gone` has none (the payload is the
 * bare id: the first format, which instances of every version read).
 * @internal
 */
export const CHANGE_MARKERS = Object.freeze({
  key_gone: '',
  key_minted: '+',
  key_changed: '~',
  keys_truncated: '*',
  bulk_change: '!',
  session_cutoff: '^',
} as const satisfies Record<KeyChangeKind, string>);

/** A marker as an SQL string literal, for the triggers: `sqlMarker('key_minted')` is `'+'`. @internal */
export function sqlMarker(kind: KeyChangeKind): string {
  return `'${CHANGE_MARKERS[kind]}'`;
}

/** A change as a NOTIFY payload carries it after `<revision>:`. @internal */
export function encodeChange(change: KeyChange): string {
  const marker = CHANGE_MARKERS[change.kind];
  switch (change.kind) {
    case 'keys_truncated':
    case 'bulk_change':
      return marker;
    case 'session_cutoff':
      return `${marker}${change.validAfterMs ?? ''}:${change.accountId}`;
    default:
      return marker + change.id;
  }
}

/** The change after `<revision>:`, or `null` for one this version does not know (ignored). @internal */
export function decodeChange(change: string): KeyChange | null {
  switch (change[0]) {
    case CHANGE_MARKERS.keys_truncated:
      return change.length === 1 ? { kind: 'keys_truncated' } : null;
    case CHANGE_MARKERS.bulk_change:
      return change.length === 1 ? { kind: 'bulk_change' } : null;
    case CHANGE_MARKERS.key_minted:
      return { kind: 'key_minted', id: change.slice(1) };
    case CHANGE_MARKERS.key_changed:
      return { kind: 'key_changed', id: change.slice(1) };
    case CHANGE_MARKERS.session_cutoff:
      return decodeCutoff(change);
    default:
      return /^[0-9a-f]/.test(change) ? { kind: 'key_gone', id: change } : null;
  }
}

function decodeCutoff(change: string): KeyChange | null {
  const colon = change.indexOf(':');
  if (colon < 0) return null;
  const ms = change.slice(1, colon);
  const validAfterMs = ms === '' ? null : Number(ms);
  if (validAfterMs !== null && !Number.isFinite(validAfterMs)) return null;
  return { kind: 'session_cutoff', accountId: change.slice(colon + 1), validAfterMs };
}

/** A whole payload, `<revision>:<change>`. @internal */
export interface ChangeAnnouncement {
  readonly revision: number;
  readonly change: KeyChange | null;
}

/** Reads a NOTIFY payload of the changes channel. @internal */
export function decodeAnnouncement(payload: string): ChangeAnnouncement {
  const colon = payload.indexOf(':');
  return { revision: Number(payload.slice(0, colon)), change: decodeChange(payload.slice(colon + 1)) };
}

/** A whole payload, as the triggers write it (for tests and for announcing from TypeScript). @internal */
export function encodeAnnouncement(revision: number, change: KeyChange): string {
  return `${revision}:${encodeChange(change)}`;
}
