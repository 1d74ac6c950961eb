import { DropsAuthError, ERROR_BRAND, type ErrorBody } from './drops-auth-error.js';
import { DEFAULT_UNAUTHENTICATED, UNAUTHENTICATED_MESSAGE, type UnauthenticatedAnswer } from './unauthenticated-answer.js';

export { BEARER_CHALLENGE, UNAUTHENTICATED_MESSAGE } from './unauthenticated-answer.js';

/**
 * Where an error keeps the 401 of the authenticator that answers it: a `Symbol.for`, so every
 * copy of `@drops/auth` in the process (ESM and CommonJS builds) reads and sets the same slot.
 */
const ANSWER = Symbol.for('@drops/auth.unauthenticated-answer');

type Answered = { [ANSWER]?: UnauthenticatedAnswer };

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
  | 'login_too_old'
  | 'signed_out';

/**
 * The uniform 401. Missing, malformed, unknown, revoked, expired and wrong-type credentials all
 * produce the same status, headers and body bytes, so a response never tells them apart or
 * confirms that a credential once existed. `reason` is for the server's own logs. The realm and
 * message are the spec's unless the authenticator that answers was created with
 * `unauthenticated: { realm, message }`.
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
    return { ...super.headers, 'www-authenticate': answerOf(this).challenge };
  }

  override get body(): ErrorBody {
    return answerOf(this).body;
  }

  override get bodyText(): string {
    return answerOf(this).bodyText;
  }
}

function answerOf(error: UnauthenticatedError): UnauthenticatedAnswer {
  return (error as Answered)[ANSWER] ?? DEFAULT_UNAUTHENTICATED;
}

/**
 * Makes `error`, when it is an `UnauthenticatedError`, answer with `answer` (the 401 an
 * authenticator was created with), whichever part of drops-auth threw it; returns `error`.
 * @internal
 */
export function answeredAs<E>(error: E, answer: UnauthenticatedAnswer | undefined): E {
  if (answer !== undefined && error instanceof UnauthenticatedError && answerOf(error) !== answer) {
    Object.defineProperty(error, ANSWER, { value: answer, configurable: true });
  }
  return error;
}
