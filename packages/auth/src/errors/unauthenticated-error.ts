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
 * Sets V8's `Error.stackTraceLimit` (Node, Deno, workerd, Bun's JavaScriptCore too) and answers the
 * previous one; where there is none (another engine) or it cannot be set (frozen intrinsics), it
 * changes nothing.
 */
function setStackTraceLimit(limit: number | undefined): number | undefined {
  const previous = (Error as { stackTraceLimit?: unknown }).stackTraceLimit;
  if (typeof previous !== 'number' || limit === undefined) return undefined;
  try {
    (Error as { stackTraceLimit?: number }).stackTraceLimit = limit;
  } catch {
    return undefined;
  }
  return previous;
}

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
    // No stack trace: the uniform 401 is an answer, not a fault, and `reason` says where it came
    // from. Capturing one was most of the cost of refusing a key (a flood of random keys pays it
    // per request; bench/METHOD.md). `stack` still names the error and its message.
    const stackTraceLimit = setStackTraceLimit(0);
    super(UNAUTHENTICATED_MESSAGE, options);
    setStackTraceLimit(stackTraceLimit);
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

/**
 * The 401 `value` answers with when it is exactly an `UnauthenticatedError` of this copy (not a
 * subclass, which may answer otherwise), else `undefined`: lets an adapter reuse what it worked
 * out for that answer once.
 * @internal
 */
export function plainUnauthenticatedAnswerOf(value: unknown): UnauthenticatedAnswer | undefined {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === UnauthenticatedError.prototype
    ? answerOf(value as UnauthenticatedError)
    : undefined;
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
