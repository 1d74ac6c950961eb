import { DropsAuthError, ERROR_BRAND } from './drops-auth-error.js';

/**
 * The thing asked for does not exist for this caller: for keys, the account has no active key
 * with that id (it is another account's, already revoked, or never existed). Answers 404.
 *
 * @example
 * ```ts
 * throw new NotFoundError('no active key with that id');
 * ```
 */
export class NotFoundError extends DropsAuthError {
  /** @internal */
  static override readonly [ERROR_BRAND]: string = 'NotFoundError';
  readonly code = 'ERR_NOT_FOUND';
  readonly status = 404;
}
