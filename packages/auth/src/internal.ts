// `@drops/auth/internal`: what @drops/auth-postgres, the benchmarks and the runtime tests share
// with the core beyond its public entries. NOT a public API: exempt from semver, it may change in
// any release. Applications import from `@drops/auth` and `@drops/auth/testing`; adapters from
// `@drops/auth/adapter`.
export { LastUsedBatcher, type LastUsedBatcherOptions, type LastUseInfo } from './key-store/last-used-batcher.js';
export {
  KEY_RECORD_VIEWS,
  keyRecordView,
  type KeyFieldsOf,
  type KeyRecordView,
  type StoredKey,
} from './key-store/key-record.js';
export { parseEventCursor } from './key-store/event-cursor.js';
export { requestInfoFrom } from './key-store/key-event.js';
export { RecentMap } from './recent-map.js';
export {
  verifyJwsTestVectors,
  type JwsTestVectorFile,
  type JwsTestVectorVerdicts,
} from './platform/jws-test-vectors.js';
export { addressLiteralOf, isDeliverableAddress, isLoopbackAddress } from './webhooks/webhook-address.js';
