import type { ActiveKey } from '@drops/auth';
import type { ActiveKeyCache } from '../active-key-cache.js';
import type { Queryable } from '../queryable.js';
import type { KeyCache } from './key-cache.js';

/**
 * The cache on an in-process database (PGlite): only this process changes the data, and every
 * revoke through any store over the same engine drops its key (the {@link ActiveKeyCache} is the
 * engine's). Nothing answers from memory once the database is closed.
 * @internal
 */
export class InProcessKeyCache implements KeyCache {
  readonly #keys: ActiveKeyCache;
  readonly #isOpen: () => boolean;
  readonly maxPollMs = 25;
  readonly maxWaitMs = Number.POSITIVE_INFINITY;
  readonly held = true;
  readonly unheard = 0;

  ready(): Promise<void> {
    return Promise.resolve();
  }

  constructor(keys: ActiveKeyCache, inProcess: NonNullable<Queryable['inProcess']>) {
    this.#keys = keys;
    this.#isOpen = () => inProcess.isOpen();
  }

  get generation(): number {
    return this.#keys.generation;
  }

  get(id: string): ActiveKey | undefined {
    return this.#isOpen() ? this.#keys.get(id) : undefined;
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

  failed(): void {
    this.#keys.clear();
  }

  nextAcknowledgement(): Promise<void> {
    return new Promise(() => {});
  }

  async close(): Promise<void> {
    this.#keys.clear();
  }
}
