import { DropsAuthError, ERROR_BRAND } from './drops-auth-error.js';

/**
 * Too many requests of one kind from one account (minting keys, `mintRateLimit`) or one client
 * address (revoking by value, `revokeRateLimit`): answers
 * `429 {"error": "..."}` with `Retry-After`, the whole seconds until the next one is allowed.
 *
 * @example
 * ```ts
 * throw new RateLimitedError('too many keys minted, try again later', 42);
 * // 429, Retry-After: 42
 * ```
 */
export class RateLimitedError extends DropsAuthError {
  /** @internal */
  static override readonly [ERROR_BRAND]: string = 'RateLimitedError';
  readonly code = 'ERR_RATE_LIMITED';
  readonly status = 429;
  /** Whole seconds until the next request is allowed (at least 1). */
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }

  override get headers(): Record<string, string> {
    return { ...super.headers, 'retry-after': String(this.retryAfterSeconds) };
  }
}
