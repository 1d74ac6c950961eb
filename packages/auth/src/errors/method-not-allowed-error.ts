import { DropsAuthError, ERROR_BRAND } from './drops-auth-error.js';

/**
 * The path exists but not with this method. Answers `405 {"error": …}` with `Allow`. Adapters send
 * it only to an authenticated caller, so it never reveals what exists to anyone else.
 *
 * @example
 * ```ts
 * throw new MethodNotAllowedError(['GET', 'POST']);
 * ```
 */
export class MethodNotAllowedError extends DropsAuthError {
  /** @internal */
  static override readonly [ERROR_BRAND]: string = 'MethodNotAllowedError';
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
