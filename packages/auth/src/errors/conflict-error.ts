import { DropsAuthError, ERROR_BRAND } from './drops-auth-error.js';

/**
 * The request is well formed and allowed, but conflicts with the state of what it acts on, and
 * sending it again would not help: for keys, a key that was rolled before (a key is rolled once;
 * roll its replacement instead). Answers 409 and changes nothing.
 *
 * @example
 * ```ts
 * throw new ConflictError('this key was rolled already: roll the key that replaced it');
 * // 409 {"error":"this key was rolled already: roll the key that replaced it"}
 * ```
 */
export class ConflictError extends DropsAuthError {
  /** @internal */
  static override readonly [ERROR_BRAND]: string = 'ConflictError';
  readonly code = 'ERR_CONFLICT';
  readonly status = 409;
}
