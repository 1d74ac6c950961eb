export type { KeyStore, KeyRecord, NewKeyRecord, ActiveKey, KeyProvenance } from './key-store.js';
export type { KeyClock } from './key-clock.js';
export type { KeyLookup } from './key-lookup.js';
export type {
  KeyWrites,
  RevocationReceipt,
  ReportRevocation,
  RevokeOptions,
  RevokeManyOptions,
  RollKeyOptions,
  RollKeyResult,
} from './key-writes.js';
export type { KeyEventLog } from './key-event-log.js';
export type { PendingRevocationQueue } from './pending-revocation-queue.js';
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
