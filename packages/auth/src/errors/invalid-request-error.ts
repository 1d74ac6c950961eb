import { DropsAuthError, ERROR_BRAND } from './drops-auth-error.js';

/**
 * The caller sent input that cannot be used (a key id that is not 64 lowercase hex, a name that
 * is too long). Answers 400 and changes nothing.
 *
 * @example
 * ```ts
 * throw new InvalidRequestError('name must be at most 64 characters');
 * ```
 */
export class InvalidRequestError extends DropsAuthError {
  /** @internal */
  static override readonly [ERROR_BRAND]: string = 'InvalidRequestError';
  readonly code = 'ERR_INVALID_REQUEST';
  readonly status = 400;
}
