import * as z from 'zod/mini';
import { lazySchema, parseOptions } from '../options/parse-options.js';
import type { ActiveKey, KeyRecord, KeyStore, NewKeyRecord } from './key-store.js';

/** Options of {@link MemoryKeyStore}. */
export interface MemoryKeyStoreOptions {
  /** Least time between two recorded uses of a key, in ms. Default 60 000. */
  readonly minUseIntervalMs?: number;
}

const optionsSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({ minUseIntervalMs: z._default(z.number().check(z.minimum(0)), 60_000) }),
);

interface MemoryRow {
  readonly record: NewKeyRecord;
  readonly active: ActiveKey;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/**
 * A {@link KeyStore} in process memory: for tests, demos and single-process tools. Keys are lost
 * when the process ends; use `@drops/auth-postgres` to keep them.
 *
 * @example
 * ```ts
 * const authenticator = createAuthenticator({ keyStore: new MemoryKeyStore() });
 * ```
 */
export class MemoryKeyStore implements KeyStore {
  readonly #rows = new Map<string, MemoryRow>();
  /** Active keys per account, so the limit check needs no scan. */
  readonly #activeCounts = new Map<string, number>();
  readonly #minUseIntervalMs: number;

  /** @param options.minUseIntervalMs - least time between two recorded uses of a key (default 60 000 ms). */
  constructor(options: MemoryKeyStoreOptions = {}) {
    this.#minUseIntervalMs = parseOptions(optionsSchema(), options, 'new MemoryKeyStore').minUseIntervalMs;
  }

  async create(key: NewKeyRecord): Promise<void> {
    this.#insert(key);
  }

  /** Creates the key unless the account already holds `maxActive` active keys (check and insert in one step). */
  async createWithinLimit(key: NewKeyRecord, maxActive: number): Promise<boolean> {
    if ((this.#activeCounts.get(key.accountId) ?? 0) >= maxActive) return false;
    this.#insert(key);
    return true;
  }

  #insert(key: NewKeyRecord): void {
    if (this.#rows.has(key.id)) throw new Error('a key with this id already exists');
    this.#rows.set(key.id, {
      record: { ...key },
      active: Object.freeze({ id: key.id, accountId: key.accountId }),
      lastUsedAt: null,
      revokedAt: null,
    });
    this.#activeCounts.set(key.accountId, (this.#activeCounts.get(key.accountId) ?? 0) + 1);
  }

  findActive(id: string): ActiveKey | null {
    const row = this.#rows.get(id);
    if (row === undefined || row.revokedAt !== null) return null;
    return row.active;
  }

  async listByAccount(accountId: string): Promise<KeyRecord[]> {
    const keys: KeyRecord[] = [];
    for (const row of this.#rows.values()) {
      if (row.record.accountId !== accountId || row.revokedAt !== null) continue;
      const { id, prefix, name, createdAt } = row.record;
      // A copy: the authenticator hands the same `Date` to every use recorded in one millisecond.
      keys.push({ id, prefix, name, createdAt, lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt) });
    }
    return keys.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
  }

  async revoke(accountId: string, id: string, at: Date): Promise<boolean> {
    const row = this.#rows.get(id);
    if (row === undefined || row.revokedAt !== null || row.record.accountId !== accountId) return false;
    row.revokedAt = at;
    const left = (this.#activeCounts.get(accountId) ?? 1) - 1;
    if (left === 0) this.#activeCounts.delete(accountId);
    else this.#activeCounts.set(accountId, left);
    return true;
  }

  recordUse(id: string, at: Date): void {
    const row = this.#rows.get(id);
    if (row === undefined) return;
    const last = row.lastUsedAt?.getTime();
    if (last !== undefined && at.getTime() - last < this.#minUseIntervalMs) return;
    if (last === undefined || at.getTime() > last) row.lastUsedAt = at;
  }

  async close(): Promise<void> {}
}
