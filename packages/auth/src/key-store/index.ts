export type { KeyStore, KeyRecord, NewKeyRecord, ActiveKey, KeyProvenance } from './key-store.js';
export { MemoryKeyStore, type MemoryKeyStoreOptions } from './memory-key-store.js';
