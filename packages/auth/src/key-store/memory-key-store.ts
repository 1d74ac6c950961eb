import * as z from 'zod/mini';
import { functionOption, lazySchema, parseOptions } from '../options/parse-options.js';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import {
  requestInfoFrom,
  UNATTRIBUTED_API_EVENT,
  type KeyEvent,
  type KeyEventContext,
  type KeyEventPage,
  type KeyEventType,
  type RequestInfo,
  type RevokeManyStatus,
} from './key-event.js';
import type { ActiveKey, KeyRecord, KeyStore, NewKeyRecord } from './key-store.js';
import type { RevokeManyOptions, RevokeOptions, RollKeyOptions, RollKeyResult } from './key-writes.js';
import type { NewPendingRevocationRequest, PendingRevocationRequest } from './pending-revocation-request.js';
import type { SessionCutoffs, SignOutOptions } from './session-cutoffs.js';
import { parseEventCursor } from './event-cursor.js';
import { systemClock, type Clock } from '../clock.js';
import { keyRecordView } from './key-record.js';

/** Options of {@link MemoryKeyStore}. */
export interface MemoryKeyStoreOptions {
  /** Least time between two recorded uses of a key, in ms. Default 60 000. */
  readonly minUseIntervalMs?: number;
  /** The clock that decides expiry (`now()`). Default: `Date.now`. Inject one in tests. */
  readonly clock?: Clock;
}

const optionsSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    minUseIntervalMs: z._default(z.number().check(z.minimum(0)), 60_000),
    clock: z.optional(functionOption<Clock>()),
  }),
);

interface MemoryRow {
  record: NewKeyRecord;
  active: ActiveKey;
  /** The key a roll replaced it with (a key is rolled once). */
  rolledTo: string | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** Whether its `'expired'` event is written (once). */
  expiryRecorded: boolean;
}

/** An event and its place in the store's one sequence (the cursor). */
interface StoredEvent {
  readonly seq: number;
  readonly event: KeyEvent;
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
export class MemoryKeyStore implements KeyStore, SessionCutoffs {
  readonly #rows = new Map<string, MemoryRow>();
  /** Active keys per account, so the limit check needs no scan. */
  readonly #activeCounts = new Map<string, number>();
  readonly #minUseIntervalMs: number;
  /** Each account's events, oldest first (ascending `seq`). */
  readonly #events = new Map<string, StoredEvent[]>();
  #lastSeq = 0;
  /** Recorded revocations by value not yet completed, by id, oldest first. */
  readonly #pendingRevocations = new Map<string, PendingRevocationRequest>();
  #lastPendingId = 0;
  readonly #clock: Clock;
  /** Each account's sign-out cut-off, ms since the epoch. */
  readonly #cutoffs = new Map<string, number>();

  /**
   * @param options.minUseIntervalMs - least time between two recorded uses of a key (default 60 000 ms).
   * @param options.clock - the clock that decides expiry (default `Date.now`).
   */
  constructor(options: MemoryKeyStoreOptions = {}) {
    const parsed = parseOptions(optionsSchema(), options, 'new MemoryKeyStore');
    this.#minUseIntervalMs = parsed.minUseIntervalMs;
    this.#clock = parsed.clock ?? systemClock;
  }

  /** The injected clock, else `Date.now`. */
  now(): number {
    return this.#clock();
  }

  async create(key: NewKeyRecord, event?: KeyEventContext): Promise<void> {
    this.#insert(key, event);
  }

  /** Creates the key unless the account already holds `maxActive` active keys (check and insert in one step). */
  async createWithinLimit(key: NewKeyRecord, maxActive: number, event?: KeyEventContext): Promise<boolean> {
    if ((this.#activeCounts.get(key.accountId) ?? 0) >= maxActive) return false;
    this.#insert(key, event);
    return true;
  }

  /** Mints `options.key` and shortens the old key's expiry to the grace, in one step. */
  async roll({ oldId, key, graceEndsAt, maxActive, event }: RollKeyOptions): Promise<RollKeyResult> {
    const old = this.#rows.get(oldId);
    const expired = old?.record.expiresAt != null && old.record.expiresAt.getTime() <= this.now();
    if (old === undefined || old.revokedAt !== null || old.record.accountId !== key.accountId || expired) {
      return { status: 'not_found' };
    }
    if (old.rolledTo !== null) return { status: 'already_rolled' };
    if ((this.#activeCounts.get(key.accountId) ?? 0) >= maxActive) return { status: 'limit' };
    this.#insert(key, event, oldId);
    const own = old.record.expiresAt;
    const oldExpiresAt = new Date(own !== null && own < graceEndsAt ? own : graceEndsAt);
    old.rolledTo = key.id;
    old.record = { ...old.record, expiresAt: oldExpiresAt };
    old.active = Object.freeze({ ...old.active, expiresAt: oldExpiresAt });
    this.#addEvent('rolled', old.record, key.createdAt, event, key.id);
    return { status: 'rolled', oldExpiresAt: new Date(oldExpiresAt) };
  }

  /** Revokes every active key of the account; `options.report` is never called. */
  async revokeAll(accountId: string, { at, event }: RevokeOptions): Promise<number> {
    let revoked = 0;
    for (const row of this.#rows.values()) {
      if (row.record.accountId !== accountId || row.revokedAt !== null) continue;
      this.#revokeRow(row, at, event ?? UNATTRIBUTED_API_EVENT);
      revoked++;
    }
    return revoked;
  }

  #insert(key: NewKeyRecord, event: KeyEventContext | undefined, replaces?: string): void {
    if (this.#rows.has(key.id)) throw new Error('a key with this id already exists');
    const record = keyRecordView(key, 'new');
    this.#rows.set(key.id, {
      record,
      active: Object.freeze(keyRecordView(record, 'active')),
      rolledTo: null,
      lastUsedAt: null,
      revokedAt: null,
      expiryRecorded: false,
    });
    this.#activeCounts.set(key.accountId, (this.#activeCounts.get(key.accountId) ?? 0) + 1);
    const context = event ?? { ...UNATTRIBUTED_API_EVENT, actor: key.provenance?.subject ?? null };
    this.#addEvent('minted', record, key.createdAt, context, replaces);
  }

  /** Moves the account's cut-off forward to `at` (never back), with its `'sessions_revoked'` event. */
  async signOutEverywhere(accountId: string, { at, event }: SignOutOptions): Promise<Date> {
    const cutoff = Math.max(this.#cutoffs.get(accountId) ?? Number.NEGATIVE_INFINITY, at.getTime());
    this.#cutoffs.set(accountId, cutoff);
    this.#addEvent('sessions_revoked', { id: '', accountId, prefix: '', name: null }, at, event);
    return new Date(cutoff);
  }

  sessionCutoff(accountId: string): number | null {
    return this.#cutoffs.get(accountId) ?? null;
  }

  #addEvent(
    type: KeyEventType,
    key: Pick<NewKeyRecord, 'id' | 'accountId' | 'prefix' | 'name'>,
    at: Date,
    context: KeyEventContext,
    relatedKeyId?: string,
  ): void {
    const { source, actor, ip, userAgent, url } = context;
    const event: KeyEvent = {
      type,
      keyId: key.id,
      prefix: key.prefix,
      name: key.name,
      at: new Date(at),
      source,
      actor,
      ip,
      userAgent,
      url,
      ...(relatedKeyId === undefined ? {} : { relatedKeyId }),
    };
    let events = this.#events.get(key.accountId);
    if (events === undefined) {
      events = [];
      this.#events.set(key.accountId, events);
    }
    events.push({ seq: ++this.#lastSeq, event });
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
      // Copies (dates included): the authenticator hands the same `Date` to every use recorded in one millisecond.
      keys.push(keyRecordView({ ...row.record, lastUsedAt: row.lastUsedAt }, 'listed'));
    }
    return keys.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
  }

  /** Revokes the account's active key; `options.report` is never called (no other instance holds this store). */
  async revoke(accountId: string, id: string, { at, event }: RevokeOptions): Promise<boolean> {
    const row = this.#rows.get(id);
    if (row === undefined || row.revokedAt !== null || row.record.accountId !== accountId) return false;
    this.#revokeRow(row, at, event ?? UNATTRIBUTED_API_EVENT);
    return true;
  }

  /** Revokes every active key among `ids`, whatever its account; one entry per distinct id. */
  async revokeMany(ids: readonly string[], { at, event }: RevokeManyOptions): Promise<{ id: string; status: RevokeManyStatus }[]> {
    const results: { id: string; status: RevokeManyStatus }[] = [];
    for (const id of new Set(ids)) {
      const row = this.#rows.get(id);
      if (row === undefined) results.push({ id, status: 'unknown' });
      else if (row.revokedAt !== null) results.push({ id, status: 'already_revoked' });
      else {
        this.#revokeRow(row, at, event);
        results.push({ id, status: 'revoked' });
      }
    }
    return results;
  }

  #revokeRow(row: MemoryRow, at: Date, event: KeyEventContext): void {
    const { accountId } = row.record;
    row.revokedAt = at;
    const left = (this.#activeCounts.get(accountId) ?? 1) - 1;
    if (left === 0) this.#activeCounts.delete(accountId);
    else this.#activeCounts.set(accountId, left);
    this.#addEvent('revoked', row.record, at, event);
  }

  async recordRevocationRequest(request: NewPendingRevocationRequest): Promise<void> {
    const id = String(++this.#lastPendingId);
    const { keyIds, at, event } = request;
    this.#pendingRevocations.set(id, { id, keyIds: [...keyIds], at: new Date(at), event: { ...event } });
  }

  async pendingRevocationRequests(options: { readonly limit: number }): Promise<PendingRevocationRequest[]> {
    const pending: PendingRevocationRequest[] = [];
    for (const request of this.#pendingRevocations.values()) {
      if (pending.length >= options.limit) break;
      pending.push({ ...request, keyIds: [...request.keyIds], at: new Date(request.at) });
    }
    return pending;
  }

  async completeRevocationRequest(options: { readonly id: string }): Promise<void> {
    this.#pendingRevocations.delete(options.id);
  }

  /** The account's events, newest first; `cursor` is the `next` of a previous page. */
  async listEvents(accountId: string, page: { readonly limit: number; readonly cursor?: string }): Promise<KeyEventPage> {
    const before = page.cursor === undefined ? Number.POSITIVE_INFINITY : parseEventCursor(page.cursor);
    if (!Number.isInteger(page.limit) || page.limit < 1) throw new InvalidRequestError('limit must be a positive integer');
    const all = this.#events.get(accountId) ?? [];
    // Binary search for the first event at or after the cursor: the page ends just before it.
    let lo = 0;
    let hi = all.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (all[mid]!.seq < before) lo = mid + 1;
      else hi = mid;
    }
    const events: KeyEvent[] = [];
    // Copies, as listByAccount's: a caller changing an event's date changes nothing stored.
    for (let i = lo - 1; i >= 0 && events.length < page.limit; i--) {
      const { event } = all[i]!;
      events.push({ ...event, at: new Date(event.at) });
    }
    const last = lo - events.length;
    return { events, next: last > 0 && events.length > 0 ? String(all[last]!.seq) : null };
  }

  recordUse(id: string, at: Date, info?: () => RequestInfo): void {
    const row = this.#rows.get(id);
    if (row === undefined) return;
    const last = row.lastUsedAt?.getTime();
    if (last !== undefined && at.getTime() - last < this.#minUseIntervalMs) return;
    if (last === undefined) {
      const request = requestInfoFrom(info);
      this.#addEvent('first_used', row.record, at, { source: 'api', actor: id, ...request, url: null });
    }
    if (last === undefined || at.getTime() > last) row.lastUsedAt = at;
  }

  /** Writes the key's one `'expired'` event, at its expiry; later calls change nothing. */
  recordExpired(id: string, info?: () => RequestInfo): void {
    const row = this.#rows.get(id);
    if (row === undefined || row.expiryRecorded || row.record.expiresAt === null) return;
    row.expiryRecorded = true;
    this.#addEvent('expired', row.record, row.record.expiresAt, { source: 'api', actor: id, ...requestInfoFrom(info), url: null });
  }

  async close(): Promise<void> {}
}
