export type {
  KeyStore,
  KeyRecord,
  NewKeyRecord,
  ActiveKey,
  KeyProvenance,
  RevocationReceipt,
  ReportRevocation,
  RevokeOptions,
  RevokeManyOptions,
  RollKeyOptions,
  RollKeyResult,
} from './key-store.js';
export type {
  KeyEvent,
  KeyEventContext,
  KeyEventPage,
  KeyEventSource,
  KeyEventType,
  RequestInfo,
  RevokeManyStatus,
} from './key-event.js';
export type { NewPendingRevocationRequest, PendingRevocationRequest } from './pending-revocation-request.js';
export type { SessionCutoffs, SignOutOptions } from './session-cutoffs.js';
export { MemoryKeyStore, type MemoryKeyStoreOptions } from './memory-key-store.js';
