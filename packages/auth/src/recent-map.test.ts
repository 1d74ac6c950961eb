import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecentMap } from './recent-map.js';

describe('RecentMap', () => {
  it('holds at most capacity keys, the most recently set', () => {
    const map = new RecentMap<number>(3);
    for (let i = 0; i < 10; i++) map.set(`k${i}`, i);
    expect(map.size).toBe(3);
    expect([map.get('k6'), map.get('k7'), map.get('k8'), map.get('k9')]).toEqual([undefined, 7, 8, 9]);
  });

  it('keeps a key set again as the most recent, even with the same value', () => {
    const map = new RecentMap<number>(3);
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 1); // a is now the most recent
    map.set('c', 4);
    expect(map.get('a')).toBe(1);
    map.set('d', 5); // evicts b
    expect([map.get('a'), map.get('b'), map.get('c'), map.get('d')]).toEqual([1, undefined, 4, 5]);
  });

  it('moves a key read with getAndMarkRecent to the most recent, and one read with get not', () => {
    const map = new RecentMap<string>(2);
    map.set('a', 'A');
    map.set('b', 'B');
    expect(map.get('a')).toBe('A');
    map.set('c', 'C'); // a stays the oldest: evicted
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([undefined, 'B', 'C']);
    expect(map.getAndMarkRecent('b')).toBe('B');
    map.set('d', 'D'); // c is the oldest now
    expect([map.get('b'), map.get('c'), map.get('d')]).toEqual(['B', undefined, 'D']);
    expect(map.getAndMarkRecent('c')).toBeUndefined();
  });

  it('frees the place of a deleted key: capacity others fit, and nothing else is evicted', () => {
    const map = new RecentMap<number>(3);
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    expect([map.delete('b'), map.delete('b')]).toEqual([true, false]);
    map.set('d', 4);
    expect([map.size, map.get('a'), map.get('b'), map.get('c'), map.get('d')]).toEqual([3, 1, undefined, 3, 4]);
    map.set('e', 5); // the oldest left is a
    expect([map.get('a'), map.get('c'), map.get('e')]).toEqual([undefined, 3, 5]);
  });

  it('forgets everything on clear, and fills up again after it', () => {
    const map = new RecentMap<number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.clear();
    expect([map.size, map.get('a'), map.get('b')]).toEqual([0, undefined, undefined]);
    map.set('c', 3);
    map.set('d', 4);
    map.set('e', 5);
    expect([map.size, map.get('c'), map.get('d'), map.get('e')]).toEqual([2, undefined, 4, 5]);
  });

  it('keeps nothing with capacity 0', () => {
    const map = new RecentMap<number>(0);
    map.set('a', 1);
    expect([map.size, map.get('a')]).toEqual([0, undefined]);
  });

  it('evicts the oldest on request when it is stale', () => {
    const map = new RecentMap<number>(10);
    map.set('a', 1);
    map.set('b', 2);
    map.evictOldestIf((v) => v < 1);
    expect(map.size).toBe(2);
    map.evictOldestIf((v) => v < 2);
    expect([map.size, map.get('a'), map.get('b')]).toEqual([1, undefined, 2]);
  });

  it('holds what a Map in order of use would, through any mix of set, delete and reads', () => {
    // The model: a plain Map in insertion order, exact and only slow (see recent-map.ts).
    const op = fc.tuple(fc.constantFrom('set', 'delete', 'get', 'getAndMarkRecent'), fc.integer({ min: 0, max: 11 }));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }), fc.array(op, { maxLength: 200 }), (capacity, ops) => {
        const map = new RecentMap<number>(capacity);
        const model = new Map<string, number>();
        ops.forEach(([name, k], step) => {
          const key = `k${k}`;
          const held = model.get(key);
          if (name === 'set') {
            model.delete(key);
            if (capacity > 0) model.set(key, step);
            if (model.size > capacity) model.delete(model.keys().next().value!);
            map.set(key, step);
          } else if (name === 'delete') {
            expect(map.delete(key)).toBe(model.delete(key));
          } else if (name === 'get') {
            expect(map.get(key)).toBe(held);
          } else {
            if (held !== undefined) {
              model.delete(key);
              model.set(key, held);
            }
            expect(map.getAndMarkRecent(key)).toBe(held);
          }
          expect(map.size).toBe(model.size);
        });
        for (const [key, value] of model) expect(map.get(key)).toBe(value);
      }),
    );
  });
});
