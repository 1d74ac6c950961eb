export {
  describeKeyStoreConformance,
  sampleKeyRecord,
  type KeyStoreHarness,
  type KeyStoreCapabilities,
} from './key-store-conformance.js';
export * from './local-identity-provider.js';
