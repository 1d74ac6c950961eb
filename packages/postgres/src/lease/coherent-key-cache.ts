import type { ActiveKey } from '@drops/auth';
import { ActiveKeyCache } from '../active-key-cache.js';
import type { KeyChange } from './change-message.js';
import type { KeyMembership } from './key-membership.js';

/**
 * Active keys kept in memory under a lease (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md): a key answers from here only
 * while the monotonic clock is before the lease's local deadline. Past it the cache lapses: it
 * empties and every lookup goes to the database until a new lease is granted.
 *
 * A lookup takes {@link generation} before its query and hands it back to {@link remember}; the
 * key is kept only if nothing was dropped, no lease lapsed or began since, and the lease is valid
 * now. So a read that raced a revocation, or one sent outside a lease, never puts a key back.
 * The keys themselves, the generation and eviction are an {@link ActiveKeyCache}'s; this adds the
 * lease.
 *
 * Under the same lease it holds the {@link KeyMembership} of every active id and every account's
 * sign-out cut-off, kept current by the announced {@link KeyChange}s, applied in revision order. A bulk change (`!`: one INSERT of many keys, or a transaction that
 * changed more keys than are announced one by one) empties the kept keys and makes the membership
 * stale: until it is re-read ({@link rebuilt}) every id not kept is looked up in the database
 * ({@link stale}), which is also what lets the instance acknowledge that revision at once. It answers only while {@link held}: the lease is valid, the
 * membership built, and every revision the lease claims to have seen applied. Otherwise the store
 * waits for it (and answers 503), never asks the database per request.
 * @internal
 */
export class CoherentKeyCache {
  readonly #keys: ActiveKeyCache;
  readonly #now: () => number;
  #deadline = Number.NEGATIVE_INFINITY;
  #members: KeyMembership | null = null;
  /** Each account's sign-out cut-off (ms since the epoch), read and kept with the membership. */
  #cutoffs = new Map<string, number>();
  /** Announcements heard while the membership is built: applied once it is, after its snapshot. */
  #heard: { revision: number; change: KeyChange | null }[] = [];
  /** A bulk change made the membership stale: misses go to the database until {@link rebuilt}. */
  #stale = false;
  /** The revision of the bulk change that made it stale: a re-read must hold it. */
  #staleSince = 0;
  /** Highest revision applied to the membership. */
  #applied = 0;
  /** The membership answers once `#applied` reaches this (the revision a lease began or came back at). */
  #required = Number.POSITIVE_INFINITY;
  #waiters = new Set<() => void>();
  #wasHeld = false;

  constructor(capacity: number, monotonicNow: () => number) {
    this.#keys = new ActiveKeyCache(capacity);
    this.#now = monotonicNow;
  }

  get generation(): number {
    return this.#keys.generation;
  }

  /** Whether the lease is valid now. */
  get valid(): boolean {
    return this.#now() < this.#deadline;
  }

  /** Whether {@link get} answers: the lease is valid, the membership built and current. */
  get held(): boolean {
    return this.#members !== null && this.#applied >= this.#required && this.#now() < this.#deadline;
  }

  /**
   * The key, if kept; `null` if it is certainly not active (not in the membership); `undefined`
   * when the database must say (a possible member, or not {@link held}: check it). A lapsed lease
   * empties the cache.
   */
  get(id: string): ActiveKey | null | undefined {
    // An endless lease (an in-process database's) never lapses: no clock read per request.
    if (this.#deadline !== Number.POSITIVE_INFINITY && this.#now() >= this.#deadline) {
      if (this.#keys.size > 0) this.lapse();
      return undefined;
    }
    const key = this.#keys.get(id);
    if (key !== undefined) return key;
    if (this.#members === null || this.#applied < this.#required || this.#stale) return undefined;
    return this.#members.mayContain(id) ? undefined : null;
  }

  /**
   * The account's sign-out cut-off in ms (ID tokens signed in at or before it are refused), `null`
   * for none; `undefined` when the database must say (not {@link held}, or stale after a bulk change).
   */
  cutoff(accountId: string): number | null | undefined {
    if (!this.held || this.#stale) return undefined;
    return this.#cutoffs.get(accountId) ?? null;
  }

  /**
   * Resolves `true` once {@link held}, `false` if not within `ms`. Only an instance starting (never
   * held yet) waits; one that lost its lease answers `false` at once (a 503) until it has it again.
   */
  heldWithin(ms: number): Promise<boolean> {
    if (this.held) return Promise.resolve(true);
    if (this.#wasHeld) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (): void => {
        if (!this.held) return;
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(done);
        resolve(this.held);
      }, ms);
      timer.unref?.();
      this.#waiters.add(done);
    });
  }

  #wakeWaiters(): void {
    if (this.held) this.#wasHeld = true;
    for (const wake of [...this.#waiters]) wake();
  }

  /** A new session is building the membership: nothing answers from it until {@link built}. */
  building(): void {
    this.#members = null;
    this.#stale = false;
    this.#heard = [];
  }

  /** Whether a bulk change left the membership stale: re-read it and hand it to {@link rebuilt}. */
  get stale(): boolean {
    return this.#stale;
  }

  /**
   * The membership re-read at `revision` (after a bulk change, while still answering): it replaces
   * the stale one, with the announcements heard since the bulk change that are newer than its
   * snapshot applied on top. Later announcements up to `revision` are in the snapshot already.
   */
  rebuilt(members: KeyMembership, revision: number, cutoffs: Map<string, number> = new Map()): void {
    // Not stale any more (a new session built it from scratch), or read before the bulk change.
    if (this.#members === null || !this.#stale || revision < this.#staleSince) return;
    const heard = this.#heard;
    this.#heard = [];
    this.#members = members;
    this.#cutoffs = cutoffs;
    this.#stale = false;
    for (const { revision: r, change } of heard) {
      if (r <= revision) continue;
      if (this.#stale)
        this.#heard.push({ revision: r, change }); // another bulk change, after the snapshot
      else this.#apply(members, r, change);
    }
    this.#applied = Math.max(this.#applied, revision);
  }

  /** The membership read at `revision`; announcements heard since are applied on top, in order. */
  built(members: KeyMembership, revision: number, cutoffs: Map<string, number> = new Map()): void {
    this.#members = members;
    this.#cutoffs = cutoffs;
    this.#applied = revision;
    const heard = this.#heard;
    this.#heard = [];
    for (const { revision: r, change } of heard) this.announced(r, change);
    this.#wakeWaiters();
  }

  /**
   * An announced change (see {@link KeyChange}): kept keys it concerns are dropped at once; the
   * membership and the cut-offs apply it in revision order. A bulk change drops every kept key and
   * makes the membership {@link stale} until re-read. A change this version does not know (`null`)
   * only counts as applied.
   */
  announced(revision: number, change: KeyChange | null): void {
    this.#dropKept(change);
    const members = this.#members;
    if (members === null) {
      this.#heard.push({ revision, change });
      return;
    }
    if (revision <= this.#applied) return;
    this.#applied = revision;
    if (this.#stale) this.#heard.push({ revision, change });
    else this.#apply(members, revision, change);
    if (this.#waiters.size > 0 || !this.#wasHeld) this.#wakeWaiters();
  }

  #dropKept(change: KeyChange | null): void {
    if (change === null) return;
    if (change.kind === 'key_gone' || change.kind === 'key_changed') this.#keys.drop(change.id);
    else if (change.kind === 'keys_truncated' || change.kind === 'bulk_change') this.#keys.clear();
  }

  #apply(members: KeyMembership, revision: number, change: KeyChange | null): void {
    switch (change?.kind) {
      case 'bulk_change':
        this.#stale = true;
        this.#staleSince = revision;
        this.#heard = [];
        return;
      case 'keys_truncated':
        members.clear();
        return;
      case 'key_minted':
        members.add(change.id);
        return;
      case 'key_gone':
        members.remove(change.id);
        return;
      case 'key_changed':
      case undefined:
        return;
      case 'session_cutoff':
        if (change.validAfterMs === null) this.#cutoffs.delete(change.accountId);
        else this.#cutoffs.set(change.accountId, change.validAfterMs);
    }
  }

  /** Bytes the membership takes now (0 before it is built). */
  get membershipBytes(): number {
    return this.#members?.bytes ?? 0;
  }

  remember(key: ActiveKey, generation: number): void {
    if (this.#now() >= this.#deadline) return;
    this.#keys.remember(key, generation);
  }

  /** A revocation of `id` was announced (or is under way here): drop it, invalidate reads in flight. */
  drop(id: string): void {
    this.#keys.drop(id);
  }

  /** The lease is lost (session failed, deadline passed, store closing): empty, answer nothing. */
  lapse(): void {
    this.#deadline = Number.NEGATIVE_INFINITY;
    this.#keys.clear();
  }

  /**
   * A renewal sent when the lease was valid succeeded: the lease goes on until `deadline`. If it
   * lapsed meanwhile (the answer came late), this is a new lease: nothing from before is kept.
   */
  renewed(deadline: number, revision: number): void {
    if (this.#now() >= this.#deadline) {
      this.lapse();
      // Announcements up to `revision` may still be on their way: answer once they are applied.
      this.#required = revision;
    }
    this.#deadline = Math.max(this.#deadline, deadline);
    this.#wakeWaiters();
  }

  /**
   * A new lease (a new session), which claims every revision up to `revision` seen: nothing read
   * before it is kept, and the membership answers once those revisions are applied.
   */
  granted(deadline: number, revision: number): void {
    this.lapse();
    this.#required = revision;
    this.#deadline = deadline;
    this.#wakeWaiters();
  }
}
