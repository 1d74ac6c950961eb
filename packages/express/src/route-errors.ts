import { DropsAuthError } from '@drops/auth';

/**
 * The request body was larger than the route accepts. Answers `413 {"error": …}`.
 *
 * @example
 * ```ts
 * next(new PayloadTooLargeError('the body is larger than 16384 bytes'));
 * ```
 */
export class PayloadTooLargeError extends DropsAuthError {
  readonly code = 'ERR_PAYLOAD_TOO_LARGE';
  readonly status = 413;
}

/**
 * The path exists under `/keys` but not with this method. Answers `405 {"error": …}` with `Allow`.
 * Only ever sent to an authenticated caller.
 *
 * @example
 * ```ts
 * next(new MethodNotAllowedError(['GET', 'POST']));
 * ```
 */
export class MethodNotAllowedError extends DropsAuthError {
  readonly code = 'ERR_METHOD_NOT_ALLOWED';
  readonly status = 405;
  /** The methods the path answers to. */
  readonly allow: readonly string[];

  constructor(allow: readonly string[]) {
    super(`method not allowed; use ${allow.join(', ')}`);
    this.allow = [...allow];
  }

  override get headers(): Record<string, string> {
    return { ...super.headers, allow: this.allow.join(', ') };
  }
}
