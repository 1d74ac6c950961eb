import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyMembership, prefixOf } from './key-membership.js';

const randomId = (): string => createHash('sha256').update(randomBytes(32)).digest('hex');
const prefixes = (ids: readonly string[]): Uint32Array => Uint32Array.from(ids, prefixOf);

describe('KeyMembership (sorted 32-bit id prefixes)', () => {
  it('holds every id given, and answers no for ids whose prefix it does not hold', () => {
    const ids = Array.from({ length: 5_000 }, randomId);
    const members = new KeyMembership(prefixes(ids));
    for (const id of ids) expect(members.mayContain(id)).toBe(true);
    let positives = 0;
    for (let i = 0; i < 20_000; i++) if (members.mayContain(randomId())) positives++;
    // n / 2^32 = 1.2e-6 per random id: 20,000 of them almost surely hit none (at most a few).
    expect(positives).toBeLessThanOrEqual(2);
    expect(members.size).toBe(5_000);
    expect(members.bytes).toBe(20_000);
  });

  it('adds and removes, before and after a merge, as a multiset (two ids may share a prefix)', () => {
    const a = `abcdef01${'0'.repeat(56)}`;
    const b = `abcdef01${'1'.repeat(56)}`;
    const members = new KeyMembership(prefixes([a]));
    members.add(b);
    members.remove(a);
    expect(members.mayContain(b)).toBe(true);
    members.merge();
    expect(members.mayContain(a)).toBe(true); // b's prefix: a false positive, never a false negative
    members.remove(b);
    expect(members.mayContain(a)).toBe(false);
    expect(members.size).toBe(0);
  });

  it('merges many changes into the same answers as a fresh build', () => {
    const start = Array.from({ length: 3_000 }, randomId);
    const members = new KeyMembership(prefixes(start));
    const added = Array.from({ length: 4_000 }, randomId); // past 1,024 pending changes: merged
    for (const id of added) members.add(id);
    const removed = start.slice(0, 1_500);
    for (const id of removed) members.remove(id);
    const kept = [...start.slice(1_500), ...added];
    for (const id of kept) expect(members.mayContain(id)).toBe(true);
    const fresh = new KeyMembership(prefixes(kept));
    for (const id of removed) expect(members.mayContain(id)).toBe(fresh.mayContain(id));
    expect(members.size).toBe(kept.length);
    members.clear();
    expect(members.mayContain(kept[0]!)).toBe(false);
  });

  it('reads a prefix only from lowercase hex (anything else: ask the database)', () => {
    expect(prefixOf('0000000f')).toBe(15);
    expect(prefixOf('ffffffff')).toBe(0xffffffff);
    expect(prefixOf('FFFFFFFF')).toBe(-1);
    expect(prefixOf('abc')).toBe(-1);
    expect(new KeyMembership(new Uint32Array(0)).mayContain('not-hex-at-all')).toBe(true);
  });
});
