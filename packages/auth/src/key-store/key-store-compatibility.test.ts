import { describe, expectTypeOf, it } from 'vitest';
import type { KeyEventContext, RevokeManyStatus } from './key-event.js';
import type { ActiveKey, KeyRecord, KeyStore, NewKeyRecord, ReportRevocation } from './key-store.js';
import type { NewPendingRevocationRequest, PendingRevocationRequest } from './pending-revocation-request.js';

// Checked by `tsc` (the package's typecheck runs over the tests): a store written before
// revocation receipts, whose revoke and revokeMany take no `report`, is still a KeyStore.
class StoreBeforeReceipts {
  async create(_key: NewKeyRecord, _event?: KeyEventContext): Promise<void> {}
  findActive(_id: string): ActiveKey | null {
    return null;
  }
  async listByAccount(_accountId: string): Promise<KeyRecord[]> {
    return [];
  }
  async revoke(_accountId: string, _id: string, _at: Date, _event?: KeyEventContext): Promise<boolean> {
    return false;
  }
  async revokeMany(ids: readonly string[], _at: Date, _event: KeyEventContext): Promise<{ id: string; status: RevokeManyStatus }[]> {
    return ids.map((id) => ({ id, status: 'unknown' as const }));
  }
  recordUse(_id: string, _at: Date): void {}
  async recordRevocationRequest(_request: NewPendingRevocationRequest): Promise<void> {}
  async pendingRevocationRequests(_options: { readonly limit: number }): Promise<PendingRevocationRequest[]> {
    return [];
  }
  async completeRevocationRequest(_options: { readonly id: string }): Promise<void> {}
}

describe('KeyStore, with revocation receipts', () => {
  it('still takes a store whose revoke and revokeMany know nothing of report', () => {
    const store: KeyStore = new StoreBeforeReceipts();
    expectTypeOf(store).toExtend<KeyStore>();
    expectTypeOf<StoreBeforeReceipts>().toExtend<KeyStore>();
  });

  it('still answers callers as before: revoke a boolean, revokeMany the statuses; report is an optional last argument', () => {
    expectTypeOf<ReturnType<KeyStore['revoke']>>().toEqualTypeOf<Promise<boolean>>();
    expectTypeOf<ReturnType<NonNullable<KeyStore['revokeMany']>>>().toEqualTypeOf<Promise<{ id: string; status: RevokeManyStatus }[]>>();
    expectTypeOf<Parameters<KeyStore['revoke']>>().toEqualTypeOf<
      [accountId: string, id: string, at: Date, event?: KeyEventContext, report?: ReportRevocation]
    >();
  });
});
