import { DropsAuthError, ERROR_BRAND, type ErrorBody } from './drops-auth-error.js';

/** The one message every authentication failure answers with: the body of every 401, byte-identical whatever the reason. */
export const UNAUTHENTICATED_MESSAGE = 'missing or invalid API key: sign in to the dashboard to mint one';

/** The `WWW-Authenticate` challenge sent with every 401. */
export const BEARER_CHALLENGE = 'Bearer realm="drops"';

const UNIFORM_BODY: ErrorBody = Object.freeze({ error: UNAUTHENTICATED_MESSAGE });
const UNIFORM_BODY_TEXT = JSON.stringify(UNIFORM_BODY);

/**
 * Why a credential was refused. For logs and metrics only: it never reaches the client, whose
 * answer is byte-identical whatever the reason.
 */
export type UnauthenticatedReason =
  | 'missing'
  | 'malformed'
  | 'unknown_key'
  | 'expired_key'
  | 'wrong_credential_type'
  | 'invalid_token'
  | 'expired_token'
  | 'not_permitted'
  | 'login_too_old';

/**
 * The uniform 401. Missing, malformed, unknown, revoked, expired and wrong-type credentials all
 * produce the same status, headers and body bytes, so a response never tells them apart or
 * confirms that a credential once existed. `reason` is for the server's own logs.
 *
 * @example
 * ```ts
 * const err = new UnauthenticatedError('unknown_key');
 * err.status;   // 401
 * err.bodyText; // '{"error":"missing or invalid API key: sign in to the dashboard to mint one"}'
 * ```
 */
export class UnauthenticatedError extends DropsAuthError {
  /** @internal */
  static override readonly [ERROR_BRAND]: string = 'UnauthenticatedError';
  readonly code = 'ERR_UNAUTHENTICATED';
  readonly status = 401;
  /** Why the credential was refused (server-side only; never sent). */
  readonly reason: UnauthenticatedReason;
  /** A safe, secret-free detail for logs, e.g. which claim failed. */
  readonly detail: string | undefined;

  constructor(reason: UnauthenticatedReason, detail?: string, options?: { cause?: unknown }) {
    super(UNAUTHENTICATED_MESSAGE, options);
    this.reason = reason;
    this.detail = detail;
  }

  override get headers(): Record<string, string> {
    return { ...super.headers, 'www-authenticate': BEARER_CHALLENGE };
  }

  override get body(): ErrorBody {
    return UNIFORM_BODY;
  }

  override get bodyText(): string {
    return UNIFORM_BODY_TEXT;
  }
}
