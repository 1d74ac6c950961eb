import { LeasedKeyCache } from '../lease/leased-key-cache.js';
import type { LeaseTiming } from '../lease/lease.js';
import type { DatabaseClock } from '../lease/database-clock.js';
import type { Queryable } from '../queryable.js';
import { InProcessKeyCache } from './in-process-key-cache.js';
import { isInProcess } from './in-process-membership.js';
import { noKeyCache, type KeyCache } from './key-cache.js';

/** What {@link openKeyCache} chooses from. @internal */
export interface KeyCacheSettings {
  readonly db: Queryable;
  readonly maxCachedKeys: number;
  /** `false`: no lease on PostgreSQL (the `cache` option). */
  readonly leased: boolean;
  readonly timing: LeaseTiming;
  readonly monotonicNow: () => number;
  /** Corrected by each lease renewal. */
  readonly clock: DatabaseClock;
  readonly onError: (error: unknown) => void;
  /** The query timeout, for the hearing checks sent through `db`. */
  readonly queryTimeoutMs: number;
}

/**
 * The store's one cache: in-process on PGlite, leased on PostgreSQL (when the database can open a
 * dedicated session), else none; none too when `maxCachedKeys` is 0.
 * @internal
 */
export function openKeyCache(settings: KeyCacheSettings): KeyCache {
  const { db, maxCachedKeys } = settings;
  if (maxCachedKeys === 0) return noKeyCache;
  if (isInProcess(db)) return new InProcessKeyCache(db, maxCachedKeys, settings.onError);
  const openSession = db.openSession;
  if (!settings.leased || openSession === undefined) return noKeyCache;
  return new LeasedKeyCache({
    ...settings.timing,
    capacity: maxCachedKeys,
    openSession,
    announce: async (channel, payload) => {
      await db.query('select pg_notify($1, $2)', [channel, payload], { timeoutMs: settings.queryTimeoutMs });
    },
    monotonicNow: settings.monotonicNow,
    clock: settings.clock,
    onError: settings.onError,
  });
}
