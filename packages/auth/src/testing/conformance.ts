// `@drops/auth/testing/conformance`: the conformance suites of the key store's parts (a whole
// KeyStore runs them all), and the HTTP suites of the routes every adapter serves. They register
// their tests with the runner functions you pass in and assert with `node:assert`: no test-runner
// dependency.
export { describeKeyStoreConformance, type KeyStoreHarness } from './key-store-conformance.js';
export { describeKeyLookupConformance } from './key-lookup-conformance.js';
export { describeKeyWritesConformance } from './key-writes-conformance.js';
export { describeKeyEventLogConformance } from './key-event-log-conformance.js';
export { describePendingRevocationQueueConformance } from './pending-revocation-queue-conformance.js';
export type { ConformanceTestApi, KeyStoreCapabilities, StoreHarness } from './conformance-suite.js';
export type {
  KeyLookupUnderTest,
  KeyWritesUnderTest,
  KeyEventLogUnderTest,
  PendingRevocationQueueUnderTest,
} from './stores-under-test.js';
export { sampleKeyRecord } from './sample-key-record.js';
export {
  describeLeakedKeysRoutes,
  type LeakedKeysTestApi,
  type LeakedKeysApp,
  type LeakedKeysServer,
  type LeakedKeysHarness,
} from './leaked-keys-conformance.js';
export {
  describeKeyRoutes,
  type KeyRoutesTestApi,
  type KeyRoutesApp,
  type KeyRoutesServer,
  type KeyRoutesHarness,
} from './key-routes-conformance.js';
