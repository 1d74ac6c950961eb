import type { CoherentKeyCache } from './coherent-key-cache.js';
import type { DedicatedSession } from '../dedicated-session.js';
import { ACKS_CHANNEL, LEASES_TABLE, REVISION_TABLE, KEY_CHANGES_CHANNEL } from '../key-store-migrations.js';
import type { DatabaseClock } from './database-clock.js';
import { leaseDeadline, renewalIntervalMs, type LeaseTiming } from './lease.js';
import { buildMembership } from './build-membership.js';
import { decodeAnnouncement } from './change-message.js';
import { NotificationsUnheardError } from '../notifications-unheard-error.js';

/** Each instance's own channel for its hearing checks (with its id in hex: 46 characters of the 63 allowed). */
const HEARD_CHANNEL_PREFIX = 'drops_auth_heard_';

/** Shortest wait for a session's first hearing check, so a loaded machine is not taken for a deaf one. */
const MIN_PROBE_WAIT_MS = 2_000;

/** Longest wait for one page of active ids while the membership is built. */
const MEMBERSHIP_PAGE_TIMEOUT_MS = 30_000;

const SQL = {
  listen: (heard: string) => `listen ${KEY_CHANGES_CHANNEL}; listen ${ACKS_CHANNEL}; listen ${heard}`,
  // After LISTEN: revisions up to the one read here committed before this lease began, so reads
  // made under it already see them (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md). Earlier sessions of this instance lapsed
  // before this one began: their rows go, so no revoker waits on them.
  acquire: `with gone as (
      delete from ${LEASES_TABLE} where instance_id = $2 or expires_at < now() - interval '1 hour'
    )
    insert into ${LEASES_TABLE} (lease_id, instance_id, expires_at, seen_revision)
    select $1, $2, now() + $3 * interval '1 millisecond', r.revision from ${REVISION_TABLE} r
    returning seen_revision, extract(epoch from clock_timestamp()) * 1000 as database_ms`,
  // Renews, acknowledges every revision processed so far, wakes the revokers waiting on it, and
  // notifies this session itself: the next renewal goes only once that heartbeat was heard.
  renew: `with renewed as (
      update ${LEASES_TABLE} set expires_at = now() + $2 * interval '1 millisecond',
        seen_revision = greatest(seen_revision, $3::bigint)
      where lease_id = $1 returning seen_revision
    )
    select seen_revision, case when $4::boolean then pg_notify('${ACKS_CHANNEL}', $1) end as woke,
      extract(epoch from clock_timestamp()) * 1000 as database_ms,
      (select revision from ${REVISION_TABLE})::text as current_revision,
      pg_notify($5, $6) as heartbeat
    from renewed`,
  release: `delete from ${LEASES_TABLE} where lease_id = $1`,
} as const;

/** What a {@link RevocationListener} needs. @internal */
export interface RevocationListenerOptions extends LeaseTiming {
  readonly openSession: () => Promise<DedicatedSession>;
  readonly cache: CoherentKeyCache;
  readonly instanceId: string;
  readonly monotonicNow: () => number;
  /** The database's clock: each acquisition and renewal measures its offset. */
  readonly clock: DatabaseClock;
  /** An instance acknowledged a revision: revokers waiting here re-check. */
  readonly onAcknowledgement: () => void;
  /**
   * Sends `NOTIFY channel, payload` the way announcements are sent: through the query connection
   * (a pooler, maybe), not the listening session.
   */
  readonly announce: (channel: string, payload: string) => Promise<void>;
  /** A hearing check went unheard: the session is dropped and the lease lapses. */
  readonly onUnheard: () => void;
  readonly onError: (error: unknown) => void;
}

class SessionLost extends Error {}

/** What the first session came to: `ready()` waits for it. */
interface Readiness {
  readonly promise: Promise<void>;
  settle(error?: Error): void;
}

function readiness(): Readiness {
  let settled = false;
  let resolve: () => void = () => {};
  let reject: (error: Error) => void = () => {};
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => {}); // nobody may ask
  return {
    promise,
    settle(error?: Error): void {
      if (settled) return;
      settled = true;
      if (error === undefined) resolve();
      else reject(error);
    },
  };
}

/**
 * Keeps this instance's lease and applies revocations (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md): one dedicated session
 * that LISTENs, holds a lease row renewed every lease/3, drops each announced key from the cache
 * and acknowledges its revision at once. Any failure of the session lapses the cache, then a new
 * session (with a new lease row) is opened, with a growing pause between attempts.
 * @internal
 */
export class RevocationListener {
  readonly #o: RevocationListenerOptions;
  #closed = false;
  #sessions = 0;
  #wake: (() => void) | null = null;
  #running: Promise<void>;
  /** The re-read of a stale membership under way (after a bulk change), if any. */
  #rebuilding: Promise<void> | null = null;
  readonly #ready = readiness();

  constructor(options: RevocationListenerOptions) {
    this.#o = options;
    this.#running = this.#run();
  }

  /**
   * Resolves once the first session holds a lease, or failed for a reason other than deafness (it
   * is retried: until then keys are 503s); rejects with {@link NotificationsUnheardError} if the
   * first session does not hear its own notifications.
   */
  ready(): Promise<void> {
    return this.#ready.promise;
  }

  /** Stops, deletes the lease row when the database answers (so no revoker waits on it), lapses the cache. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#o.cache.lapse();
    this.#wake?.();
    await this.#running;
    await this.#rebuilding;
  }

  /**
   * After a bulk change the membership is stale (every miss is a query): re-read it on a session of
   * its own, so the lease session goes on renewing meanwhile. A failure leaves it stale (still
   * correct) until the next attempt, at the next renewal.
   */
  #rebuildIfStale(): void {
    const o = this.#o;
    if (!o.cache.stale || this.#rebuilding !== null || this.#closed) return;
    this.#rebuilding = (async () => {
      let session: DedicatedSession | undefined;
      try {
        session = await o.openSession();
        const built = await buildMembership(session, MEMBERSHIP_PAGE_TIMEOUT_MS);
        o.cache.rebuilt(built.members, built.revision, built.cutoffs);
      } catch (error) {
        if (!this.#closed) o.onError(error);
      } finally {
        session?.release();
        this.#rebuilding = null;
      }
    })();
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref?.();
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    });
  }

  async #run(): Promise<void> {
    let failures = 0;
    while (!this.#closed) {
      const started = this.#o.monotonicNow();
      try {
        await this.#session();
      } catch (error) {
        if (!this.#closed) this.#o.onError(error);
        if (this.#sessions === 1) this.#ready.settle(error instanceof NotificationsUnheardError ? error : undefined);
      }
      this.#ready.settle();
      this.#o.cache.lapse();
      if (this.#closed) return;
      // A session that held for a while starts over at once; repeated failures back off.
      failures = this.#o.monotonicNow() - started > renewalIntervalMs(this.#o) ? 0 : failures + 1;
      if (failures > 0) await this.#sleep(Math.min(renewalIntervalMs(this.#o), 50 * 2 ** Math.min(failures, 6)));
    }
  }

  async #session(): Promise<void> {
    const o = this.#o;
    const timeoutMs = renewalIntervalMs(o);
    const session = await o.openSession();
    const number = ++this.#sessions;
    const leaseId = `${o.instanceId}/${number}`;
    const heard = HEARD_CHANNEL_PREFIX + o.instanceId.replaceAll('-', '');
    let lost: Error | null = null;
    let processed = 0;
    let acknowledged = 0;
    /** Hearing checks sent (the first through the query connection, then one in each renewal) and heard. */
    let checksSent = 0;
    let checksHeard = 0;
    session.onLost((error) => {
      lost = error;
      o.cache.lapse();
      this.#wake?.();
    });
    session.onNotification((channel, payload) => {
      if (channel === heard) {
        if (payload.startsWith(`${number}:`)) checksHeard = Math.max(checksHeard, Number(payload.slice(payload.indexOf(':') + 1)));
        this.#wake?.();
        return;
      }
      if (channel === ACKS_CHANNEL) {
        o.onAcknowledgement();
        return;
      }
      if (channel !== KEY_CHANGES_CHANNEL) return;
      // A bulk change makes the membership stale: it is re-read, see #rebuildIfStale.
      const { revision, change } = decodeAnnouncement(payload);
      o.cache.announced(revision, change);
      if (revision > processed) processed = revision;
      this.#wake?.(); // acknowledge now
    });
    const check = (): void => {
      if (lost !== null) throw new SessionLost('revocation session lost', { cause: lost });
    };
    try {
      await session.exec(SQL.listen(heard));
      check();
      // Never deaf: a NOTIFY sent as announcements are (through the query connection) must arrive
      // here before this session takes a lease.
      checksSent = 1;
      await o.announce(heard, `${number}:1`);
      const probeUntil = o.monotonicNow() + Math.max(timeoutMs, MIN_PROBE_WAIT_MS);
      while (checksHeard < 1 && lost === null && !this.#closed && o.monotonicNow() < probeUntil) {
        await this.#sleep(probeUntil - o.monotonicNow());
      }
      check();
      if (this.#closed) return;
      if (checksHeard < 1) {
        o.onUnheard();
        throw new NotificationsUnheardError(
          'the listening session does not receive the notifications sent through the query connection ' +
            '(a transaction-mode pooler in front of it drops them): give it a direct or session-mode connection (listenConnectionString)',
        );
      }
      // Every active id, read after LISTEN: announcements from here on complete it (counted into
      // acquiring the lease; revokers and minters do not wait on a lease that does not exist yet).
      o.cache.building();
      const built = await buildMembership(session, Math.max(timeoutMs, MEMBERSHIP_PAGE_TIMEOUT_MS));
      check();
      o.cache.built(built.members, built.revision, built.cutoffs);
      let sentAt = o.monotonicNow();
      let wallSentAt = o.clock.wallNow();
      const { rows } = await session.query<{ seen_revision: string; database_ms: string | number }>(
        SQL.acquire,
        [leaseId, o.instanceId, o.leaseMs],
        { timeoutMs },
      );
      check();
      o.clock.observe(Number(rows[0]?.database_ms), wallSentAt, o.clock.wallNow());
      const first = Number(rows[0]?.seen_revision ?? 0);
      if (first > processed) processed = first;
      acknowledged = first;
      o.cache.granted(leaseDeadline(o, sentAt), first);
      this.#ready.settle();
      let renewAt = sentAt + timeoutMs;
      while (!this.#closed) {
        if (processed <= acknowledged) {
          const wait = renewAt - o.monotonicNow();
          if (wait > 0) await this.#sleep(wait);
        }
        check();
        if (this.#closed) break;
        if (checksHeard < checksSent) {
          // The last renewal's own NOTIFY never arrived: announcements are not reaching this
          // session either. Stop answering first, then let no minter or revoker wait on this row.
          o.cache.lapse();
          o.onUnheard();
          await session.query(SQL.release, [leaseId], { timeoutMs }).catch(() => {});
          throw new NotificationsUnheardError('the listening session stopped hearing its own notifications: its lease is given up');
        }
        this.#rebuildIfStale();
        const ack = processed > acknowledged;
        const carrying = processed;
        sentAt = o.monotonicNow();
        wallSentAt = o.clock.wallNow();
        const renewed = await session.query<{ database_ms: string | number; current_revision: string }>(
          SQL.renew,
          [leaseId, o.leaseMs, String(carrying), ack, heard, `${number}:${++checksSent}`],
          { timeoutMs },
        );
        check();
        if (renewed.rows.length !== 1) throw new SessionLost('the lease row is gone');
        o.clock.observe(Number(renewed.rows[0]!.database_ms), wallSentAt, o.clock.wallNow());
        o.cache.renewed(leaseDeadline(o, sentAt), Number(renewed.rows[0]!.current_revision));
        acknowledged = carrying;
        renewAt = sentAt + timeoutMs;
      }
      // Closing: no revoker needs to wait for this lease any more.
      o.cache.lapse();
      await session.query(SQL.release, [leaseId], { timeoutMs }).catch(() => {});
    } finally {
      session.release();
    }
  }
}
