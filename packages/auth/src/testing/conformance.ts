// `@drops/auth/testing/conformance`: the KeyStore conformance suite (imports vitest).
export {
  describeKeyStoreConformance,
  type KeyStoreHarness,
  type KeyStoreCapabilities,
} from './key-store-conformance.js';
export { sampleKeyRecord } from './sample-key-record.js';
