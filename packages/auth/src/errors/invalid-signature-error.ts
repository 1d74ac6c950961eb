import { DropsAuthError, ERROR_BRAND } from './drops-auth-error.js';

/**
 * A signed request (GitHub's secret scanning alerts) whose signature is missing, malformed, made
 * with a key the signer does not publish, or does not match the body. Answers
 * `401 {"error": …}` and nothing is done. Not the uniform 401 of the account routes: these routes
 * take no credential, so there is nothing to keep from telling apart; the message never holds a
 * piece of the request.
 *
 * @example
 * ```ts
 * throw new InvalidSignatureError('the Github-Public-Key-Signature header is missing');
 * ```
 */
export class InvalidSignatureError extends DropsAuthError {
  /** @internal */
  static override readonly [ERROR_BRAND]: string = 'InvalidSignatureError';
  readonly code = 'ERR_INVALID_SIGNATURE';
  readonly status = 401;
}
