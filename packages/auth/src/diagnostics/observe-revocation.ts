import { NotFoundError } from '../errors/not-found-error.js';
import { revocationChannel } from './channels.js';

/**
 * Runs a revocation and, when anyone listens on `drops-auth:revocation`, publishes how long it
 * waited and how it ended; the result or failure is passed on unchanged.
 */
export async function observeRevocation(keyId: string, revoke: () => Promise<void>): Promise<void> {
  if (!revocationChannel.hasSubscribers) return revoke();
  const startedAt = performance.now();
  try {
    await revoke();
    revocationChannel.publish({ keyId, outcome: 'revoked', durationMs: performance.now() - startedAt, instancesAcknowledged: null });
  } catch (error) {
    const outcome = error instanceof NotFoundError ? 'not_found' : 'failed';
    revocationChannel.publish({ keyId, outcome, durationMs: performance.now() - startedAt, instancesAcknowledged: null });
    throw error;
  }
}
