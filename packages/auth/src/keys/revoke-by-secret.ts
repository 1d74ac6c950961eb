import { isApiKeyFormat } from '../api-key/api-key-format.js';
import { keyIdOf } from '../api-key/key-id.js';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import type { KeyEventContext, RequestInfo, RevokeManyStatus } from '../key-store/key-event.js';
import type { KeyStore, RevocationReceipt } from '../key-store/key-store.js';
import type { ReportBatchRevocation } from '../diagnostics/observe-revocation.js';

/** Who revokes by value, for the events: `KeyManager.revokeBySecret`'s second argument. */
export interface RevokeBySecretContext {
  /** `'revoke_by_value'` (`POST /credentials/revoke`) or `'github_secret_scanning'`. */
  readonly source: 'revoke_by_value' | 'github_secret_scanning';
  /** Default: `'github'` for secret scanning, else `null` (no credential acted). */
  readonly actor?: string | null;
  /** The request that carried the secrets. */
  readonly request?: RequestInfo;
  /** Where the secrets were found (secret scanning's `url`). */
  readonly url?: string | null;
}

/** What became of one entry of `KeyManager.revokeBySecret`: `not_a_key` for entries not shaped like a secret. */
export interface RevokeBySecretResult {
  /** The secret's key id (a hash, safe to show), `null` for an entry that is not key-shaped. */
  readonly keyId: string | null;
  readonly status: RevokeManyStatus | 'not_a_key';
}

/** The key ids of the key-shaped entries, `null` for every other entry. Never throws on an entry. */
export function keyIdsOfSecrets(secrets: readonly unknown[]): (string | null)[] {
  if (!Array.isArray(secrets)) throw new InvalidRequestError('expected a list of secrets');
  return secrets.map((secret: unknown) => (typeof secret === 'string' && isApiKeyFormat(secret) ? keyIdOf(secret) : null));
}

/**
 * Revokes keys by id whatever their account, through `revokeMany`, or, for a store without it, one
 * by one through `findActive` and `revoke` (which cannot tell a key revoked before from an unknown
 * one: both are `'unknown'`). One entry per distinct id. `report` gets the store's receipts: one
 * for the batch (`keyId` `null`) from `revokeMany`, one per key from `revoke`.
 */
export async function revokeIds(
  keyStore: KeyStore,
  ids: readonly string[],
  at: Date,
  event: KeyEventContext,
  report?: ReportBatchRevocation,
): Promise<Map<string, RevokeManyStatus>> {
  const statuses = new Map<string, RevokeManyStatus>();
  if (ids.length === 0) return statuses;
  if (keyStore.revokeMany !== undefined) {
    const reportBatch = report && ((receipt: RevocationReceipt): void => report(receipt, null));
    for (const { id, status } of await keyStore.revokeMany(ids, at, event, reportBatch)) statuses.set(id, status);
    return statuses;
  }
  for (const id of new Set(ids)) {
    const key = await keyStore.findActive(id);
    const reportKey = report && ((receipt: RevocationReceipt): void => report(receipt, id));
    statuses.set(id, key !== null && (await keyStore.revoke(key.accountId, id, at, event, reportKey)) ? 'revoked' : 'unknown');
  }
  return statuses;
}
