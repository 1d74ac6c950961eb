import { randomUUID } from 'node:crypto';
import type { ActiveKey } from '@drops/auth';
import type { DedicatedSession } from '../dedicated-session.js';
import type { KeyCache } from '../key-cache/key-cache.js';
import { CoherentKeyCache } from './coherent-key-cache.js';
import { renewalIntervalMs, type LeaseTiming } from './lease.js';
import { RevocationListener } from './revocation-listener.js';
import type { DatabaseClock } from './database-clock.js';

/** What a {@link LeasedKeyCache} needs. @internal */
export interface LeasedKeyCacheOptions extends LeaseTiming {
  readonly capacity: number;
  readonly openSession: () => Promise<DedicatedSession>;
  /** Sends a NOTIFY through the query connection, as announcements are sent. */
  readonly announce: (channel: string, payload: string) => Promise<void>;
  readonly monotonicNow: () => number;
  readonly clock: DatabaseClock;
  readonly onError: (error: unknown) => void;
}

/**
 * The cache on PostgreSQL (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md):
 * keys, and the membership of every active id, answer from memory only under this instance's
 * lease, which a {@link RevocationListener} holds on a dedicated session; announced mints and
 * revocations update them, and every instance's acknowledgement wakes the minters and revokers
 * waiting here.
 * @internal
 */
export class LeasedKeyCache implements KeyCache {
  readonly #keys: CoherentKeyCache;
  readonly #listener: RevocationListener;
  readonly #acknowledgements = new Set<() => void>();
  readonly maxPollMs: number;
  readonly maxWaitMs: number;
  #unheard = 0;

  constructor(options: LeasedKeyCacheOptions) {
    this.#keys = new CoherentKeyCache(options.capacity, options.monotonicNow);
    this.maxPollMs = Math.min(250, renewalIntervalMs(options));
    // A deaf instance's row is gone (deleted, or expired) within a lease and a renewal interval of
    // the change it did not hear (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md#a-lease-means-hearing); the margin covers clock rates.
    this.maxWaitMs = options.leaseMs + renewalIntervalMs(options) + options.marginMs;
    this.#listener = new RevocationListener({
      leaseMs: options.leaseMs,
      marginMs: options.marginMs,
      openSession: options.openSession,
      cache: this.#keys,
      instanceId: randomUUID(),
      monotonicNow: options.monotonicNow,
      clock: options.clock,
      onAcknowledgement: () => {
        const waiting = [...this.#acknowledgements];
        this.#acknowledgements.clear();
        for (const wake of waiting) wake();
      },
      announce: options.announce,
      onUnheard: () => {
        this.#unheard++;
      },
      onError: options.onError,
    });
  }

  ready(): Promise<void> {
    return this.#listener.ready();
  }

  get unheard(): number {
    return this.#unheard;
  }

  get generation(): number {
    return this.#keys.generation;
  }

  get(id: string): ActiveKey | null | undefined {
    return this.#keys.get(id);
  }

  cutoff(accountId: string): number | null | undefined {
    return this.#keys.cutoff(accountId);
  }

  get held(): boolean {
    return this.#keys.held;
  }

  heldWithin(ms: number): Promise<boolean> {
    return this.#keys.heldWithin(ms);
  }

  /** Kept only if no revocation, lapse or new lease happened since the query was sent. */
  remember(key: ActiveKey, generation: number): void {
    this.#keys.remember(key, generation);
  }

  drop(id: string): void {
    this.#keys.drop(id);
  }

  /** A failed lookup says nothing of the lease: the lease's own session decides when it lapses. */
  failed(): void {}

  nextAcknowledgement(): Promise<void> {
    return new Promise((resolve) => this.#acknowledgements.add(resolve));
  }

  async close(): Promise<void> {
    this.#keys.lapse();
    await this.#listener.close();
  }
}
