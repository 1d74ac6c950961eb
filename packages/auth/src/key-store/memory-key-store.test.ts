import { describeKeyStoreConformance } from '../testing/key-store-conformance.js';
import { MemoryKeyStore } from './memory-key-store.js';

describeKeyStoreConformance('MemoryKeyStore', async () => ({ store: new MemoryKeyStore({ minUseIntervalMs: 0 }) }));
