import { DropsAuthError } from '@drops/auth';

/** Default largest `POST /keys` body, in bytes (a key request is `{"name": "…"}`). */
export const DEFAULT_KEYS_BODY_LIMIT = 16 * 1024;

/**
 * The request body was larger than the route accepts. Answers `413 {"error": …}`.
 *
 * @example
 * ```ts
 * throw new PayloadTooLargeError('request body must be at most 16384 bytes');
 * ```
 */
export class PayloadTooLargeError extends DropsAuthError {
  readonly code = 'ERR_PAYLOAD_TOO_LARGE';
  readonly status = 413;
}
