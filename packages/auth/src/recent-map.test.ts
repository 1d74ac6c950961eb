import { describe, expect, it } from 'vitest';
import { RecentMap } from './recent-map.js';

describe('RecentMap', () => {
  it('holds at most capacity keys, the most recently set', () => {
    const map = new RecentMap(3);
    for (let i = 0; i < 10; i++) map.set(`k${i}`, i);
    expect(map.size).toBe(3);
    expect([map.get('k6'), map.get('k7'), map.get('k8'), map.get('k9')]).toEqual([undefined, 7, 8, 9]);
  });

  it('keeps a key set again: its newer slot counts, not the one evicted', () => {
    const map = new RecentMap(3);
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 3); // a's first slot is now stale
    map.set('c', 4); // evicts a's first slot: a stays
    expect(map.get('a')).toBe(3);
    map.set('d', 5); // evicts b
    expect([map.get('a'), map.get('b'), map.get('c'), map.get('d')]).toEqual([3, undefined, 4, 5]);
  });

  it('evicts the oldest on request when it is stale', () => {
    const map = new RecentMap(10);
    map.set('a', 1);
    map.set('b', 2);
    map.evictOldestIf((v) => v < 1);
    expect(map.size).toBe(2);
    map.evictOldestIf((v) => v < 2);
    expect([map.size, map.get('a'), map.get('b')]).toEqual([1, undefined, 2]);
  });
});
