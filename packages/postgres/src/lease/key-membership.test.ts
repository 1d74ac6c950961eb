import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyMembership } from './key-membership.js';

const randomId = (): string => createHash('sha256').update(randomBytes(32)).digest('hex');
/** An id sharing `id`'s first `hexDigits` digits, different after them. */
const sharing = (id: string, hexDigits: number): string => {
  const next = id[hexDigits] === '0' ? '1' : '0';
  return `${id.slice(0, hexDigits)}${next}${randomId().slice(hexDigits + 1)}`;
};

describe('KeyMembership (sorted 96-bit id fingerprints)', () => {
  it('holds every id given, and answers no for ids whose fingerprint it does not hold', () => {
    const ids = Array.from({ length: 5_000 }, randomId);
    const members = KeyMembership.of(ids);
    expect(ids.every((id) => members.mayContain(id))).toBe(true);
    expect(Array.from({ length: 20_000 }, randomId).some((id) => members.mayContain(id))).toBe(false);
    expect(members.size).toBe(5_000);
    expect(members.bytes).toBe(60_000);
  });

  it('answers no for an id crafted to share a held id’s first 32, 64 or 95 bits', () => {
    const held = Array.from({ length: 100 }, randomId);
    const members = KeyMembership.of(held);
    for (const id of held) {
      for (const digits of [8, 16, 23]) expect(members.mayContain(sharing(id, digits))).toBe(false);
      expect(members.mayContain(sharing(id, 24))).toBe(true); // past the fingerprint: the database decides
    }
  });

  it('sorts ids given in any order, runs sharing a first word included', () => {
    const head = randomId().slice(0, 8);
    const ids = [...Array.from({ length: 50 }, () => head + randomId().slice(8)), ...Array.from({ length: 2_000 }, randomId)];
    const members = KeyMembership.of(ids.reverse());
    for (const id of ids) expect(members.mayContain(id)).toBe(true);
    for (const id of ids.slice(0, 50)) expect(members.mayContain(sharing(id, 16))).toBe(false);
  });

  it('adds and removes, before and after a merge, as a multiset (two ids may share a fingerprint)', () => {
    const a = `abcdef01${'2'.repeat(16)}${'0'.repeat(40)}`;
    const b = `abcdef01${'2'.repeat(16)}${'1'.repeat(40)}`;
    const members = KeyMembership.of([a]);
    members.add(b);
    members.remove(a);
    expect(members.mayContain(b)).toBe(true);
    members.merge();
    expect(members.mayContain(a)).toBe(true); // b's fingerprint: a false positive, never a false negative
    members.remove(b);
    expect(members.mayContain(a)).toBe(false);
    expect(members.size).toBe(0);
  });

  it('answers pending additions and removals (not merged yet), and no for ids sharing only their first 32 or 64 bits', () => {
    const held = Array.from({ length: 100 }, randomId);
    const members = KeyMembership.of(held);
    const added = randomId();
    members.add(added);
    members.remove(held[0]!);
    expect(members.mayContain(added)).toBe(true);
    expect(members.mayContain(held[0]!)).toBe(false);
    expect(members.mayContain(held[1]!)).toBe(true);
    for (const id of [added, held[0]!]) {
      for (const digits of [8, 16]) expect(members.mayContain(sharing(id, digits))).toBe(false);
    }
    members.remove(added);
    members.add(held[0]!);
    expect(members.mayContain(added)).toBe(false);
    expect(members.mayContain(held[0]!)).toBe(true);
  });

  it('merges many changes into the same answers as a fresh build', () => {
    const start = Array.from({ length: 3_000 }, randomId);
    const members = KeyMembership.of(start);
    const added = Array.from({ length: 4_000 }, randomId); // past 1,024 pending changes: merged
    for (const id of added) members.add(id);
    const removed = start.slice(0, 1_500);
    for (const id of removed) members.remove(id);
    const kept = [...start.slice(1_500), ...added];
    for (const id of kept) expect(members.mayContain(id)).toBe(true);
    for (const id of removed) expect(members.mayContain(id)).toBe(false);
    expect(members.size).toBe(kept.length);
    members.merge();
    for (const id of kept) expect(members.mayContain(id)).toBe(true);
    members.clear();
    expect(members.mayContain(kept[0]!)).toBe(false);
  });

  it('reads a fingerprint only from lowercase hex (anything else: ask the database)', () => {
    const members = KeyMembership.of([]);
    expect(members.mayContain('not-hex-at-all')).toBe(true);
    expect(members.mayContain(randomId().toUpperCase())).toBe(true);
    expect(members.mayContain('abc')).toBe(true);
    expect(members.mayContain(randomId())).toBe(false);
  });
});
