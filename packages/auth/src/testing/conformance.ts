// `@drops/auth/testing/conformance`: the KeyStore conformance suite. It registers its tests with
// the runner functions you pass in and asserts with `node:assert`: no test-runner dependency.
export {
  describeKeyStoreConformance,
  type ConformanceTestApi,
  type KeyStoreHarness,
  type KeyStoreCapabilities,
} from './key-store-conformance.js';
export { sampleKeyRecord } from './sample-key-record.js';
