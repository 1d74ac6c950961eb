import type { KeyEventContext } from '../key-store/key-event.js';
import type { PendingRevocationQueue } from '../key-store/pending-revocation-queue.js';

/** Pending revocations read from the store per query. */
const PAGE = 100;

/**
 * Carries out the revocations by value a store holds as pending (`recordRevocationRequest`):
 * each with `revoke`, then completed. The function returned runs one pass at a time; a call while
 * a pass runs queues one more (calls meanwhile share it), so the promise a call gets resolves only
 * after a pass that started after the call, and so after every request recorded before it. A
 * failure leaves the request pending (for the next pass, or the next process after a crash) and
 * rejects. Revoking twice is harmless: a key revoked already is `'already_revoked'`, no new event.
 * @internal
 */
export function pendingRevocationsDrainer(
  queue: PendingRevocationQueue,
  revoke: (keyIds: readonly string[], at: Date, event: KeyEventContext) => Promise<unknown>,
): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  let queued: Promise<void> | undefined;

  async function pass(): Promise<void> {
    for (;;) {
      const pending = await queue.pendingRevocationRequests({ limit: PAGE });
      for (const { id, keyIds, at, event } of pending) {
        await revoke(keyIds, at, event);
        await queue.completeRevocationRequest({ id });
      }
      if (pending.length < PAGE) return;
    }
  }

  return () => {
    queued ??= running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        queued = undefined;
        return pass();
      });
    running = queued;
    return queued;
  };
}
