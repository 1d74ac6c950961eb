// Whether a bounded cache evicts in O(1): shared by the tests of the caches built on RecentMap
// (packages/auth/src/recent-map.ts), in @drops/auth and @drops/auth-postgres.
import { performance } from 'node:perf_hooks';

/**
 * Fills a cache of `capacity` through `insert(id)`, then times 2 × `capacity` inserts of ids it
 * never saw (each one evicts) against the same ids into a bare `Map` that deletes, per insert, the
 * id `capacity` inserts older: the least a bounded cache can do. Best of 3 interleaved rounds
 * each; answers the cache's time over the bare Map's. O(1) eviction keeps it a small constant; a
 * walk per eviction (V8's holes behind `keys().next()`) makes it grow with `capacity`.
 */
export function fullCacheChurnCostOverMap(insert, capacity) {
  const idsOfRound = (round) => Array.from({ length: 2 * capacity }, (_, i) => `r${round}-${i}`);
  let held = idsOfRound(0).slice(-capacity);
  for (const id of held) insert(id);
  const bare = new Map(held.map((id) => [id, id]));
  let cacheMs = Number.POSITIVE_INFINITY;
  let bareMs = Number.POSITIVE_INFINITY;
  for (let round = 1; round <= 3; round++) {
    const ids = idsOfRound(round);
    let start = performance.now();
    for (const id of ids) insert(id);
    cacheMs = Math.min(cacheMs, performance.now() - start);
    start = performance.now();
    for (let i = 0; i < ids.length; i++) {
      bare.set(ids[i], ids[i]);
      bare.delete(i < capacity ? held[i] : ids[i - capacity]);
    }
    bareMs = Math.min(bareMs, performance.now() - start);
    held = ids.slice(-capacity);
  }
  return cacheMs / bareMs;
}
