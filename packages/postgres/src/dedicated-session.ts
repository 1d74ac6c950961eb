import type { SqlExecutor } from './queryable.js';

/**
 * One database connection kept for a single purpose, outside the pool's rotation: the session a
 * caching {@link PostgresKeyStore} `LISTEN`s on and renews its lease over (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md).
 * Notifications arrive on it in commit order.
 *
 * @example
 * ```ts
 * const session = await db.openSession!();
 * session.onNotification((channel, payload) => console.log(channel, payload));
 * session.onLost((error) => console.warn('session lost', error.message));
 * await session.exec('listen drops_auth_revocations');
 * session.release();
 * ```
 */
export interface DedicatedSession extends SqlExecutor {
  /** Sets the one listener for `NOTIFY`s delivered to this session. */
  onNotification(listener: (channel: string, payload: string) => void): void;
  /** Sets the one listener called, at most once, when the connection fails or ends. */
  onLost(listener: (error: Error) => void): void;
  /** Closes the connection for good (it never goes back to a pool). Idempotent. */
  release(): void;
}
