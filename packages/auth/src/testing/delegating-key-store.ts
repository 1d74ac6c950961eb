import type { KeyStore } from '../key-store/key-store.js';

/**
 * A {@link KeyStore} that forwards every method to `inner`, except those in `overrides`: for the
 * core's tests that spy on a store, or make one method fail. Not exported.
 */
export function delegatingKeyStore(inner: KeyStore, overrides: Partial<KeyStore> = {}): KeyStore {
  return {
    create: (key, event) => inner.create(key, event),
    createWithinLimit: (key, maxActive, event) => inner.createWithinLimit(key, maxActive, event),
    findActive: (id) => inner.findActive(id),
    listByAccount: (accountId) => inner.listByAccount(accountId),
    revoke: (accountId, id, options) => inner.revoke(accountId, id, options),
    revokeMany: (ids, options) => inner.revokeMany(ids, options),
    roll: (options) => inner.roll(options),
    revokeAll: (accountId, options) => inner.revokeAll(accountId, options),
    listEvents: (accountId, page) => inner.listEvents(accountId, page),
    recordUse: (id, at, info) => inner.recordUse(id, at, info),
    now: () => inner.now(),
    recordExpired: (id, info) => inner.recordExpired(id, info),
    recordRevocationRequest: (request) => inner.recordRevocationRequest(request),
    pendingRevocationRequests: (options) => inner.pendingRevocationRequests(options),
    completeRevocationRequest: (options) => inner.completeRevocationRequest(options),
    close: () => inner.close(),
    ...overrides,
  };
}
