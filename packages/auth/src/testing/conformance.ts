// `@drops/auth/testing/conformance`: the KeyStore conformance suite, and the HTTP suite of the
// leaked-key routes every adapter serves. They register their tests with the runner functions you
// pass in and assert with `node:assert`: no test-runner dependency.
export {
  describeKeyStoreConformance,
  type ConformanceTestApi,
  type KeyStoreHarness,
  type KeyStoreCapabilities,
} from './key-store-conformance.js';
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
