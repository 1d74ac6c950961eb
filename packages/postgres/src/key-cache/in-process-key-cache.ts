import type { ActiveKey } from '@drops/auth';
import type { CoherentKeyCache } from '../lease/coherent-key-cache.js';
import type { KeyCache } from './key-cache.js';
import { inProcessKeysOf, type InProcessQueryable } from './in-process-membership.js';

/**
 * The cache on an in-process database (PGlite): only this process changes the data, so the
 * engine's kept keys and membership of active ids ({@link inProcessKeysOf}, shared by every store
 * over the engine) answer without a lease. A key found once costs no query, and neither does an
 * unknown or a revoked id once the membership is read; every revoke through a store drops its key
 * before and after it commits, and every change (plain SQL too) is applied before its statement
 * resolves. Nothing answers from memory once the database is closed.
 * @internal
 */
export class InProcessKeyCache implements KeyCache {
  readonly #keys: CoherentKeyCache;
  readonly #isOpen: () => boolean;
  readonly maxPollMs = 25;
  readonly maxWaitMs = Number.POSITIVE_INFINITY;
  readonly held = true;
  readonly unheard = 0;

  ready(): Promise<void> {
    return Promise.resolve();
  }

  constructor(db: InProcessQueryable, capacity: number, onError: (error: unknown) => void) {
    this.#keys = inProcessKeysOf(db, capacity, onError);
    const { inProcess } = db;
    this.#isOpen = () => inProcess.isOpen();
  }

  get generation(): number {
    return this.#keys.generation;
  }

  get(id: string): ActiveKey | null | undefined {
    return this.#isOpen() ? this.#keys.get(id) : undefined;
  }

  cutoff(accountId: string): number | null | undefined {
    return this.#isOpen() ? this.#keys.cutoff(accountId) : undefined;
  }

  heldWithin(): Promise<boolean> {
    return Promise.resolve(true);
  }

  remember(key: ActiveKey, generation: number): void {
    this.#keys.remember(key, generation);
  }

  drop(id: string): void {
    this.#keys.drop(id);
  }

  /** The kept keys go (a new endless lease); the membership stays: no change is missed in process. */
  failed(): void {
    this.#keys.granted(Number.POSITIVE_INFINITY, 0);
  }

  nextAcknowledgement(): Promise<void> {
    return new Promise(() => {});
  }

  /** The engine's keys outlive this store (other stores share them) and end with the engine. */
  async close(): Promise<void> {}
}
