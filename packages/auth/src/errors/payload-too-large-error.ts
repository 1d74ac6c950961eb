import { DropsAuthError, ERROR_BRAND } from './drops-auth-error.js';

/**
 * The request body was larger than the route accepts. Answers `413 {"error": …}`.
 *
 * @example
 * ```ts
 * throw new PayloadTooLargeError('the request body must be at most 16384 bytes');
 * ```
 */
export class PayloadTooLargeError extends DropsAuthError {
  /** @internal */
  static override readonly [ERROR_BRAND]: string = 'PayloadTooLargeError';
  readonly code = 'ERR_PAYLOAD_TOO_LARGE';
  readonly status = 413;
}
