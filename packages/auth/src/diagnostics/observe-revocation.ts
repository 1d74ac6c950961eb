import { NotFoundError } from '../errors/not-found-error.js';
import type { RevokeManyStatus } from '../key-store/key-event.js';
import type { ReportRevocation, RevocationReceipt } from '../key-store/key-writes.js';
import { revocationChannel } from './channels.js';
import type { RevocationMessage } from './diagnostics-messages.js';

/** A count a store reported, if it is one: a store's bad receipt never reaches a subscriber as a number. */
function countOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

function publish(keyId: string, outcome: RevocationMessage['outcome'], durationMs: number, receipt: RevocationReceipt | undefined): void {
  revocationChannel.publish({
    keyId,
    outcome,
    durationMs,
    instancesAcknowledged: countOf(receipt?.instancesAcknowledged),
    leasesExpired: countOf(receipt?.leasesExpired),
  });
}

/**
 * Runs a revocation by id and, when anyone listens on `drops-auth:revocation`, publishes how long
 * it waited, how it ended and the store's receipt; the result or failure is passed on unchanged.
 * `revoke` gets the `report` to hand the store, or `undefined` when nobody listens.
 */
export async function observeRevocation(keyId: string, revoke: (report: ReportRevocation | undefined) => Promise<void>): Promise<void> {
  if (!revocationChannel.hasSubscribers) return revoke(undefined);
  const startedAt = performance.now();
  let receipt: RevocationReceipt | undefined;
  try {
    await revoke((r) => {
      receipt = r;
    });
    publish(keyId, 'revoked', performance.now() - startedAt, receipt);
  } catch (error) {
    publish(keyId, error instanceof NotFoundError ? 'not_found' : 'failed', performance.now() - startedAt, receipt);
    throw error;
  }
}

/**
 * Runs a revocation by value and, when anyone listens on `drops-auth:revocation`, publishes one
 * `revoked` message per key it revoked, with the whole call's duration and the batch's receipt.
 * Nothing for the other ids (see `RevocationMessage`) nor for a failure. `revoke` gets the `report`
 * to hand the store, or `undefined` when nobody listens.
 */
export async function observeRevocationsByValue(
  revoke: (report: ReportRevocation | undefined) => Promise<Map<string, RevokeManyStatus>>,
): Promise<Map<string, RevokeManyStatus>> {
  if (!revocationChannel.hasSubscribers) return revoke(undefined);
  const startedAt = performance.now();
  let receipt: RevocationReceipt | undefined;
  const statuses = await revoke((r) => {
    receipt = r;
  });
  const durationMs = performance.now() - startedAt;
  for (const [keyId, status] of statuses) {
    if (status === 'revoked') publish(keyId, 'revoked', durationMs, receipt);
  }
  return statuses;
}
