import type { AuthAnswer } from '../authenticator/authenticator-traits.js';
import { credentialTypeOf, type AuthorizationValue } from '../authenticator/parse-authorization.js';
import { UnauthenticatedError } from '../errors/unauthenticated-error.js';
import { UnavailableError } from '../errors/unavailable-error.js';
import { authenticateChannel } from './channels.js';
import type { AuthenticateMessage } from './diagnostics-messages.js';

/** Whether anyone listens on `drops-auth:authenticate`: check before timing anything. */
export function observingAuthentication(): boolean {
  return authenticateChannel.hasSubscribers;
}

function failureOf(error: unknown): Pick<AuthenticateMessage, 'outcome' | 'reason'> {
  if (error instanceof UnauthenticatedError) return { outcome: 'refused', reason: error.reason };
  if (error instanceof UnavailableError) return { outcome: 'unavailable', reason: error.dependency };
  return { outcome: 'error', reason: null };
}

function publishFailure(error: unknown, authorization: AuthorizationValue, startedAt: number): void {
  const { outcome, reason } = failureOf(error);
  authenticateChannel.publish({ credential: credentialTypeOf(authorization), outcome, reason, durationMs: performance.now() - startedAt });
}

function publish(answer: AuthAnswer, authorization: AuthorizationValue, startedAt: number): void {
  if (answer instanceof Error) {
    publishFailure(answer, authorization, startedAt);
    return;
  }
  // A principal says what it was authenticated by; `null` is an optional route's request without a credential.
  const credential = answer === null ? null : answer.credential;
  const outcome = answer === null ? 'anonymous' : 'authenticated';
  authenticateChannel.publish({ credential, outcome, reason: null, durationMs: performance.now() - startedAt });
}

/**
 * Publishes how an answer of the authenticator's check ends on `drops-auth:authenticate` (at once
 * for an answer at hand, when it settles for a promise), and hands it on unchanged. Call only when
 * {@link observingAuthentication} said yes; `authorization` is the value the check read, and
 * `startedAt` is `performance.now()` at the call.
 */
export function observeAuthentication<A extends AuthAnswer | Promise<AuthAnswer>>(
  answer: A,
  authorization: AuthorizationValue,
  startedAt: number,
): A {
  if (!(answer instanceof Promise)) {
    publish(answer as AuthAnswer, authorization, startedAt);
    return answer;
  }
  return answer.then(
    (settled: AuthAnswer) => {
      publish(settled, authorization, startedAt);
      return settled;
    },
    (error: unknown) => {
      publishFailure(error, authorization, startedAt);
      throw error;
    },
  ) as A;
}
