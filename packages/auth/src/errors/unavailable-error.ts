import { DropsAuthError, ERROR_BRAND } from './drops-auth-error.js';

/**
 * Which dependency failed (`secret_scanning_keys`: GitHub's list of secret scanning signing keys;
 * `rate_limit_store`: the `RateLimitStore` a limit is counted in).
 */
export type UnavailableDependency = 'key_store' | 'identity_provider' | 'account_resolver' | 'secret_scanning_keys' | 'rate_limit_store';

/**
 * A dependency (the key store or the identity provider) could not answer. Answers 503 with
 * `Retry-After`: never a 401, which would tell a pipeline its key is bad, and never a success.
 *
 * @example
 * ```ts
 * throw new UnavailableError('key_store', { cause: dbError });
 * ```
 */
export class UnavailableError extends DropsAuthError {
  /** @internal */
  static override readonly [ERROR_BRAND]: string = 'UnavailableError';
  readonly code = 'ERR_UNAVAILABLE';
  readonly status = 503;
  readonly dependency: UnavailableDependency;
  /** Seconds a client should wait before trying again (default 5). */
  readonly retryAfterSeconds: number;

  constructor(dependency: UnavailableDependency, options?: { cause?: unknown; retryAfterSeconds?: number }) {
    super('authentication is temporarily unavailable, try again shortly', options);
    this.dependency = dependency;
    this.retryAfterSeconds = options?.retryAfterSeconds ?? 5;
  }

  override get headers(): Record<string, string> {
    return { ...super.headers, 'retry-after': String(this.retryAfterSeconds) };
  }
}
