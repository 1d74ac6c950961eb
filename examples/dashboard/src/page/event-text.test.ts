import { describe, expect, it } from 'vitest';
import type { KeyEventInfo } from './api.js';
import { eventText } from './event-text.js';

const KEY = 'a'.repeat(64);
const base: KeyEventInfo = {
  type: 'minted',
  keyId: KEY,
  prefix: 'hp_AbCdEfG',
  name: 'ci-main',
  at: '2026-11-23T15:00:00.000Z',
  source: 'api',
  actor: 'alice',
  ip: null,
  userAgent: null,
};

describe('eventText', () => {
  it('says who minted a key, and from where', () => {
    expect(eventText(base)).toEqual({ title: 'Minted', detail: 'by alice', link: null });
    expect(eventText({ ...base, ip: '203.0.113.7' }).detail).toBe('by alice, from 203.0.113.7');
  });

  it('says who signed the account out everywhere, and from where', () => {
    const event: KeyEventInfo = { ...base, type: 'sessions_revoked', keyId: '', prefix: '', name: null, ip: '203.0.113.7' };
    expect(eventText(event)).toEqual({ title: 'Signed out everywhere', detail: 'by alice, from 203.0.113.7', link: null });
  });

  it('says where a key was first used from, with its user agent', () => {
    expect(eventText({ ...base, type: 'first_used', actor: KEY, ip: '203.0.113.7', userAgent: 'curl/8.5.0' })).toEqual({
      title: 'First used',
      detail: 'from 203.0.113.7 (curl/8.5.0)',
      link: null,
    });
  });

  it('titles a roll and names the key that replaced the old one, and the one the new key replaces', () => {
    const next = 'b'.repeat(64);
    expect(eventText({ ...base, type: 'rolled', rolledTo: next })).toEqual({
      title: 'Rolled',
      detail: `replaced by key ${'b'.repeat(12)}…, by alice`,
      link: null,
    });
    expect(eventText({ ...base, keyId: next, replaces: KEY }).detail).toBe(`replaces key ${'a'.repeat(12)}…, by alice`);
  });

  it('says a key expired, and nothing of the request that noticed it', () => {
    expect(eventText({ ...base, type: 'expired', source: 'api', actor: null, ip: '203.0.113.7' })).toEqual({
      title: 'Expired',
      detail: '',
      link: null,
    });
  });

  it('says a key found by GitHub secret scanning was found in a public repository, and links there', () => {
    const url = 'https://github.com/someone/repo/blob/abc/config.env';
    const found = { ...base, type: 'revoked' as const, source: 'github_secret_scanning' as const, actor: 'github', ip: '140.82.115.1' };
    expect(eventText({ ...found, url })).toEqual({ title: 'Revoked', detail: 'found in a public repository at', link: url });
    expect(eventText({ ...found, url: 'javascript:alert(1)' })).toEqual({
      title: 'Revoked',
      detail: 'found in a public repository at javascript:alert(1)',
      link: null,
    });
    expect(eventText(found).detail).toBe('found in a public repository by GitHub secret scanning');
  });

  it('tells revoke by value, by id with an ID token or a key, and by an operator apart', () => {
    const revoked = { ...base, type: 'revoked' as const };
    expect(eventText({ ...revoked, source: 'revoke_by_value', actor: null, ip: '198.51.100.2' }).detail).toBe(
      'by value: someone who held the key sent it to be revoked, from 198.51.100.2',
    );
    expect(eventText({ ...revoked, actor: 'alice' }).detail).toBe('by alice');
    expect(eventText({ ...revoked, actor: KEY }).detail).toBe('with the key itself');
    expect(eventText({ ...revoked, actor: 'b'.repeat(64) }).detail).toBe('with another API key');
    expect(eventText({ ...revoked, source: 'operator', actor: null }).detail).toBe('by an operator');
  });

  it('reads sensibly for a type or source it does not know', () => {
    const unknown = { ...base, type: 'renamed', source: 'import', actor: null } as unknown as KeyEventInfo;
    expect(eventText(unknown)).toEqual({ title: 'renamed', detail: '', link: null });
  });
});
