import type { KeyStore } from '../key-store/key-store.js';

/**
 * A {@link KeyStore} with only the required members, over another store: what a store written
 * before the optional ones (`createWithinLimit`, `revokeMany`, `listEvents`) looks like to the
 * core. For the core's own tests of its fallbacks; not exported.
 */
export function minimalKeyStore(inner: KeyStore): KeyStore {
  return {
    create: (key, event) => inner.create(key, event),
    findActive: (id) => inner.findActive(id),
    listByAccount: (accountId) => inner.listByAccount(accountId),
    revoke: (accountId, id, at, event) => inner.revoke(accountId, id, at, event),
    recordUse: (id, at, info) => inner.recordUse(id, at, info),
    recordRevocationRequest: (request) => inner.recordRevocationRequest(request),
    pendingRevocationRequests: (options) => inner.pendingRevocationRequests(options),
    completeRevocationRequest: (options) => inner.completeRevocationRequest(options),
  };
}
