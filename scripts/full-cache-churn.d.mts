/** A full bounded cache's time to take 2 × `capacity` new ids, over a bare `Map`'s (best of 3 rounds). */
export declare function fullCacheChurnCostOverMap(insert: (id: string) => void, capacity: number): number;
