import type { AuthAnswer } from '../authenticator/authenticator-traits.js';
import type { CredentialType } from '../authenticator/principal.js';
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

function publish(answer: AuthAnswer, credential: CredentialType | null, startedAt: number): void {
  const ended =
    answer === null
      ? { outcome: 'anonymous' as const, reason: null }
      : answer instanceof Error
        ? failureOf(answer)
        : { outcome: 'authenticated' as const, reason: null };
  authenticateChannel.publish({ credential, ...ended, durationMs: performance.now() - startedAt });
}

/**
 * Publishes how an answer of the authenticator's check ends on `drops-auth:authenticate` (at once
 * for an answer at hand, when it settles for a promise), and hands it on unchanged. Call only when
 * {@link observingAuthentication} said yes; `startedAt` is `performance.now()` at the call.
 */
export function observeAuthentication<A extends AuthAnswer | Promise<AuthAnswer>>(
  answer: A,
  credential: CredentialType | null,
  startedAt: number,
): A {
  if (!(answer instanceof Promise)) {
    publish(answer as AuthAnswer, credential, startedAt);
    return answer;
  }
  return answer.then(
    (settled: AuthAnswer) => {
      publish(settled, credential, startedAt);
      return settled;
    },
    (error: unknown) => {
      authenticateChannel.publish({ credential, ...failureOf(error), durationMs: performance.now() - startedAt });
      throw error;
    },
  ) as A;
}
