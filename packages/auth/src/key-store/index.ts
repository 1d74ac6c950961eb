export type { KeyStore, KeyRecord, NewKeyRecord, ActiveKey, KeyProvenance } from './key-store.js';
export { MemoryKeyStore } from './memory-key-store.js';
export { LastUsedBatcher, type LastUsedBatcherOptions } from './last-used-batcher.js';
