import type { ActiveKey, KeyLookup, KeyWrites, NewKeyRecord, RevokeOptions } from '@drops/auth';
import { Redis } from 'ioredis';

/** Options of {@link RedisKeyLookup.open}. */
export interface RedisKeyLookupOptions {
  /** The Redis primary (never a replica: a replica may not have seen a revocation yet), e.g. `redis://127.0.0.1:6379`. */
  readonly url: string;
  /** Put before every Redis key the store writes, e.g. `drops:`: one prefix per application. */
  readonly prefix: string;
  /** How long a command may wait for Redis before it rejects (a 503 on the hot path). Default 1 000 ms. */
  readonly commandTimeoutMs?: number;
}

// Each script runs atomically in Redis: a create cannot slip between a revoke's check and its write.
/** Stores a key unless its id exists, revoked or not (ids are never reused). */
const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('a key with this id already exists') end
redis.call('HSET', KEYS[1], 'account', ARGV[1], 'expires', ARGV[2])
return 1`;

/** Marks the account's active key revoked: 1 if this call did, 0 for another's, a revoked or an unknown key. */
const REVOKE = `
if redis.call('HGET', KEYS[1], 'account') ~= ARGV[1] or redis.call('HEXISTS', KEYS[1], 'revoked') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'revoked', ARGV[2])
return 1`;

/**
 * The hot path on Redis: a `KeyLookup`, and the two writes that put a key in and take it out
 * (`create`, `revoke`). One hash per key, `<prefix>key:<id>` → `account`, `expires` (ms, or empty
 * for never) and, once revoked, `revoked`. No cache: every lookup reads the primary, so a revoke is
 * seen by the next lookup on every instance.
 *
 * @example
 * ```ts
 * const store = await RedisKeyLookup.open({ url: 'redis://127.0.0.1:6379', prefix: 'drops:' });
 * const authenticator = createAuthenticator({ keyStore: store });
 * ```
 */
export class RedisKeyLookup implements KeyLookup, Pick<KeyWrites, 'create' | 'revoke'> {
  readonly #redis: Redis;
  readonly #prefix: string;

  private constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  /** Connects, and resolves once Redis answers; rejects if it cannot. */
  static async open({ url, prefix, commandTimeoutMs = 1_000 }: RedisKeyLookupOptions): Promise<RedisKeyLookup> {
    // No offline queue: while Redis is away a command rejects at once (a 503) rather than waiting
    // for a reconnect; the timeout rejects one that Redis never answers (a partition).
    const redis = new Redis(url, { enableOfflineQueue: false, commandTimeout: commandTimeoutMs, lazyConnect: true });
    // A lost connection shows as commands that reject; without a listener ioredis would also log
    // each failed reconnect attempt.
    redis.on('error', () => {});
    await redis.connect();
    return new RedisKeyLookup(redis, prefix);
  }

  /** One read, the same for an unknown and a revoked id: `null` for both. */
  async findActive(id: string): Promise<ActiveKey | null> {
    const [account, expires, revoked] = await this.#redis.hmget(this.#keyOf(id), 'account', 'expires', 'revoked');
    if (account === null || account === undefined || revoked !== null) return null;
    return { id, accountId: account, expiresAt: expires ? new Date(Number(expires)) : null };
  }

  /** The process's clock: instances refuse an expired key at the same instant as far as their clocks agree (NTP). */
  now(): number {
    return Date.now();
  }

  /** Nothing to keep: this store lists no keys (no `lastUsedAt`) and has no event log. */
  recordUse(): void {}

  /** Nothing to keep: this store has no event log for the `'expired'` event. */
  recordExpired(): void {}

  /** Stores an active key; rejects if the id exists. The `'minted'` event is for a store with an event log. */
  async create(key: NewKeyRecord): Promise<void> {
    await this.#redis.eval(CREATE, 1, this.#keyOf(key.id), key.accountId, key.expiresAt?.getTime() ?? '');
  }

  /** Revokes the account's active key. No instance holds a cache, so there is nothing to wait for, and no receipt to report. */
  async revoke(accountId: string, id: string, { at }: RevokeOptions): Promise<boolean> {
    return (await this.#redis.eval(REVOKE, 1, this.#keyOf(id), accountId, at.getTime())) === 1;
  }

  /** Closes the connection once the commands sent have been answered; at once (and stops reconnecting) when Redis is away. */
  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }

  #keyOf(id: string): string {
    return `${this.#prefix}key:${id}`;
  }
}
