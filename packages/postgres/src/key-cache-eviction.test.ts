import type { ActiveKey } from '@drops/auth';
import { describe, expect, it } from 'vitest';
import { ActiveKeyCache } from './active-key-cache.js';
import { CoherentKeyCache } from './lease/coherent-key-cache.js';

// Eviction in the two active-key caches (PGlite's, and the lease-coherent one on PostgreSQL):
// bounded, first in first out (a hit does not count as a use); O(1) per insert is measured in bench/bounded-caches.bench.mjs, not timed here.
interface KeyCache {
  readonly generation: number;
  get(id: string): ActiveKey | null | undefined;
  remember(key: ActiveKey, generation: number): void;
  drop(id: string): void;
}

function coherentUnderLease(capacity: number): KeyCache {
  const cache = new CoherentKeyCache(capacity, () => 0);
  cache.granted(Number.POSITIVE_INFINITY, 0);
  return cache;
}

describe.each([
  { name: 'ActiveKeyCache', cacheOf: (capacity: number): KeyCache => new ActiveKeyCache(capacity) },
  { name: 'CoherentKeyCache under a lease', cacheOf: coherentUnderLease },
])('$name', ({ cacheOf }) => {
  const key = (id: string): ActiveKey => Object.freeze({ id, accountId: 'acct', expiresAt: null });
  const remember = (cache: KeyCache, ...ids: string[]): void => {
    for (const id of ids) cache.remember(key(id), cache.generation);
  };
  const held = (cache: KeyCache, ...ids: string[]): (string | undefined)[] => ids.map((id) => cache.get(id)?.id);

  it('forgets the key remembered longest ago when full, even one just answered', () => {
    const cache = cacheOf(2);
    remember(cache, 'a', 'b');
    expect(held(cache, 'a')).toEqual(['a']); // a hit: not a use
    remember(cache, 'c');
    expect(held(cache, 'a', 'b', 'c')).toEqual([undefined, 'b', 'c']);
  });

  it('evicts no other key when it remembers one it holds', () => {
    const cache = cacheOf(2);
    remember(cache, 'a', 'b', 'b'); // two lookups of b that both missed
    expect(held(cache, 'a', 'b')).toEqual(['a', 'b']);
    remember(cache, 'c'); // b was remembered last: a goes
    expect(held(cache, 'a', 'b', 'c')).toEqual([undefined, 'b', 'c']);
  });

  it('never answers a dropped key, and gives its place to another', () => {
    const cache = cacheOf(2);
    remember(cache, 'a', 'b');
    cache.drop('a');
    remember(cache, 'c');
    expect(held(cache, 'a', 'b', 'c')).toEqual([undefined, 'b', 'c']);
  });
});
