import { isApiKeyFormat } from '../api-key/api-key-format.js';
import { keyIdOf } from '../api-key/key-id.js';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import type { RequestInfo, RevokeManyStatus } from '../key-store/key-event.js';
import type { KeyWrites, RevokeManyOptions } from '../key-store/key-writes.js';

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
 * Revokes keys by id whatever their account, through the store's `revokeMany`: one entry per
 * distinct id. `report` gets the store's receipt for the batch.
 */
export async function revokeIds(
  keyStore: Pick<KeyWrites, 'revokeMany'>,
  ids: readonly string[],
  options: RevokeManyOptions,
): Promise<Map<string, RevokeManyStatus>> {
  const statuses = new Map<string, RevokeManyStatus>();
  if (ids.length === 0) return statuses;
  for (const { id, status } of await keyStore.revokeMany(ids, options)) statuses.set(id, status);
  return statuses;
}
