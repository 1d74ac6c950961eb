import { describe, expect, it } from 'vitest';
import { keyStoreMigrations } from '../key-store-migrations.js';
import { CHANGE_MARKERS, decodeAnnouncement, decodeChange, encodeAnnouncement, encodeChange, type KeyChange } from './change-message.js';

const id = 'ab'.repeat(32);

describe('change messages', () => {
  const changes: KeyChange[] = [
    { kind: 'key_gone', id },
    { kind: 'key_minted', id },
    { kind: 'key_changed', id },
    { kind: 'keys_truncated' },
    { kind: 'bulk_change' },
    { kind: 'session_cutoff', accountId: 'acct:with:colons', validAfterMs: 1_764_000_000_123 },
    { kind: 'session_cutoff', accountId: 'acct_1', validAfterMs: null },
  ];

  it.each(changes)('decodes what it encodes: %o', (change) => {
    expect(decodeChange(encodeChange(change))).toEqual(change);
    expect(decodeAnnouncement(encodeAnnouncement(42, change))).toEqual({ revision: 42, change });
  });

  it('reads the payloads the first versions wrote', () => {
    expect(decodeAnnouncement(`7:${id}`)).toEqual({ revision: 7, change: { kind: 'key_gone', id } });
    expect(decodeAnnouncement(`8:+${id}`)).toEqual({ revision: 8, change: { kind: 'key_minted', id } });
    expect(decodeAnnouncement('9:!')).toEqual({ revision: 9, change: { kind: 'bulk_change' } });
  });

  it('takes a marker it does not know for nothing, never for a key gone', () => {
    expect(decodeChange('%something')).toBeNull();
    expect(decodeChange('^not-a-number:acct')).toBeNull();
  });

  it('gives every kind its own marker, and the triggers announce with those markers only', () => {
    const markers = Object.values(CHANGE_MARKERS);
    expect(new Set(markers).size).toBe(markers.length);
    const sql = keyStoreMigrations.map((m) => m.sql).join('\n');
    const announced = [...sql.matchAll(/drops_auth_announce(?:_key)?\('(.)'/g)].map((m) => m[1]);
    expect(announced.length).toBeGreaterThan(0);
    for (const marker of announced) expect(markers).toContain(marker);
  });
});
