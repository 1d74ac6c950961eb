import { DropsAuthError, ERROR_BRAND, type ErrorBody } from './drops-auth-error.js';

/** The body of a {@link KeyLimitError}: the message and the limit, so a client can say what to do. */
export interface KeyLimitErrorBody extends ErrorBody {
  /** Active keys an account may hold. */
  readonly limit: number;
}

/**
 * The account already holds as many active keys as it may (`maxKeysPerAccount`): answers
 * `409 {"error": "...", "limit": N}`.
 *
 * 409 Conflict, because the request is well formed and the caller is allowed to mint: it conflicts
 * with the current state of the account's key set, and the caller can resolve that (revoke a key)
 * and send the same request again. Not 403 (nothing about who is asking would change the answer),
 * not 422 (the body is fine), and never 401 (the credential is good).
 *
 * @example
 * ```ts
 * throw new KeyLimitError(1000);
 * // 409 {"error":"this account already has 1000 active keys, the most it may hold: revoke one to mint another","limit":1000}
 * ```
 */
export class KeyLimitError extends DropsAuthError {
  /** @internal */
  static override readonly [ERROR_BRAND]: string = 'KeyLimitError';
  readonly code = 'ERR_KEY_LIMIT';
  readonly status = 409;
  /** Active keys an account may hold. */
  readonly limit: number;

  constructor(limit: number) {
    const keys = limit === 1 ? '1 active key' : `${limit} active keys`;
    super(`this account already has ${keys}, the most it may hold: revoke one to mint another`);
    this.limit = limit;
  }

  override get body(): KeyLimitErrorBody {
    return { error: this.message, limit: this.limit };
  }
}
