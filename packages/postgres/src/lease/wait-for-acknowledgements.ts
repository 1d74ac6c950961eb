import { LEASES_TABLE } from '../key-store-migrations.js';
import type { Queryable } from '../queryable.js';

/**
 * How a revocation's wait went (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md): passed to `onRevocationWait`, ready to
 * publish as a metric or on a diagnostics channel.
 *
 * @example
 * ```ts
 * new PostgresKeyStore({ db, onRevocationWait: (w: RevocationWait) => log.info(w, 'revocation acknowledged') });
 * ```
 */
export interface RevocationWait {
  /** The revision the revocation took. */
  readonly revision: number;
  /** From the commit's answer to the last instance's acknowledgement (or lease expiry), in ms. */
  readonly durationMs: number;
  /** Instances (lease rows) with an unexpired lease that acknowledged the revision. */
  readonly acknowledged: number;
  /** Instances that were waited on and whose lease expired instead (partitioned, paused, killed). */
  readonly expired: number;
}

// One statement: who still may accept the key (unexpired, not acknowledged), who acknowledged,
// and when the first of the pending leases expires (by the database's clock).
const WAIT_SQL = `select
    coalesce(array_agg(lease_id) filter (where seen_revision < $1), '{}') as pending,
    coalesce(array_agg(lease_id) filter (where seen_revision >= $1), '{}') as acknowledged,
    coalesce(extract(epoch from (min(expires_at) filter (where seen_revision < $1)) - now()) * 1000, 0)::float8 as next_expiry_ms
  from ${LEASES_TABLE} where expires_at > now()`;

/** @internal */
export interface WaitForAcknowledgementsOptions {
  readonly db: Queryable;
  readonly revision: number;
  readonly monotonicNow: () => number;
  /** Resolves when an acknowledgement is announced (or never, without a listener). */
  readonly nextAcknowledgement: () => Promise<void>;
  /** Longest pause between two checks, in ms (acknowledgements announced on a lost session). */
  readonly maxPollMs: number;
  readonly timeoutMs: number;
  /**
   * Longest wait, in ms: a lease renewed past it without acknowledging belongs to an instance that
   * does not hear announcements (and does not know it): the wait rejects rather than hang.
   */
  readonly maxWaitMs: number;
}

/**
 * Returns once every instance holding an unexpired lease has acknowledged `revision`, or its lease
 * has expired: from then on no instance accepts the revoked key. Rejects if the database stops
 * answering, or after `maxWaitMs` with a lease still pending (the caller answers 503; the
 * revocation is committed and a retry waits again).
 * @internal
 */
export async function waitForAcknowledgements(o: WaitForAcknowledgementsOptions): Promise<RevocationWait> {
  const start = o.monotonicNow();
  const waitedOn = new Set<string>();
  for (;;) {
    const acknowledgement = o.nextAcknowledgement();
    const { rows } = await o.db.query<{ pending: string[]; acknowledged: string[]; next_expiry_ms: number }>(
      WAIT_SQL,
      [String(o.revision)],
      { name: 'drops_auth_revocation_wait', timeoutMs: o.timeoutMs },
    );
    const row = rows[0] ?? { pending: [], acknowledged: [], next_expiry_ms: 0 };
    for (const id of row.pending) waitedOn.add(id);
    if (row.pending.length === 0) {
      const acknowledged = new Set(row.acknowledged);
      let expired = 0;
      for (const id of waitedOn) if (!acknowledged.has(id)) expired++;
      return { revision: o.revision, durationMs: o.monotonicNow() - start, acknowledged: acknowledged.size, expired };
    }
    const waited = o.monotonicNow() - start;
    if (waited >= o.maxWaitMs) {
      throw new Error(
        `revision ${o.revision} not acknowledged after ${Math.round(waited)} ms by ${row.pending.length} instance(s) that keep renewing their lease: do they hear announcements?`,
      );
    }
    const pause = Math.max(1, Math.min(o.maxPollMs, o.maxWaitMs - waited, Math.ceil(Number(row.next_expiry_ms)) + 1));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, pause);
      acknowledgement.then(() => {
        clearTimeout(timer);
        resolve();
      }, resolve);
    });
  }
}
