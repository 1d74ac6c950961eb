import type { CredentialType, Principal } from '../authenticator/principal.js';
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

/**
 * Publishes how `result` ends on `drops-auth:authenticate`, and hands it on unchanged. Call only
 * when {@link observingAuthentication} said yes; `startedAt` is `performance.now()` at the call.
 */
export function observeAuthentication<P extends Principal | null>(
  result: Promise<P>,
  credential: CredentialType | null,
  startedAt: number,
): Promise<P> {
  return result.then(
    (principal) => {
      authenticateChannel.publish({
        credential,
        outcome: principal === null ? 'anonymous' : 'authenticated',
        reason: null,
        durationMs: performance.now() - startedAt,
      });
      return principal;
    },
    (error: unknown) => {
      authenticateChannel.publish({ credential, ...failureOf(error), durationMs: performance.now() - startedAt });
      throw error;
    },
  );
}
